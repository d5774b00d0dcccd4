import 'reflect-metadata';
import { runOrExit, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';
import { mountProxy } from './app/proxy/mount-proxy';

runOrExit('gateway', () => startHttpApp(AppModule, { configure: mountProxy }));
