import 'reflect-metadata';
import { runHttpService, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';

runHttpService('iam', () => startHttpApp(AppModule));
