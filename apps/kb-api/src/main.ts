import 'reflect-metadata';
import { runOrExit, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';
import { httpOptions } from './http-options';

runOrExit('kb-api', () => startHttpApp(AppModule, httpOptions));
