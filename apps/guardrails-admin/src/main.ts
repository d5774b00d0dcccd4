import 'reflect-metadata';
import { runOrExit, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';

runOrExit('guardrails-admin', () => startHttpApp(AppModule));
