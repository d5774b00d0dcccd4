import 'reflect-metadata';
import { runOrExit, startWorker } from '@platform/runtime';
import { WorkerModule } from './worker.module';

runOrExit('iam-worker', () => startWorker(WorkerModule));
