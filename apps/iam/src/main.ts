import 'reflect-metadata';
import { runHttpService, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';
import { httpOptions } from './http-options';

runHttpService('iam', () => startHttpApp(AppModule, httpOptions));
