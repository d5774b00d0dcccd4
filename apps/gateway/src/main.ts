import 'reflect-metadata';
import { runHttpService, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';
import { mountProxy } from './app/proxy/mount-proxy';

runHttpService('gateway', () => startHttpApp(AppModule, { configure: mountProxy }));
