import 'reflect-metadata';
import { runOrExit, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';

runOrExit('kb-api', () => startHttpApp(AppModule));
