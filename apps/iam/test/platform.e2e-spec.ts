import { loadEnv } from '@platform/config';
import { describeServiceBasics } from '@platform/testing';
import { IamEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';

describeServiceBasics({
  service: 'iam',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  loadWorkerModule: async () => (await import('../src/worker.module')).WorkerModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(IamEnv, env)),
});
