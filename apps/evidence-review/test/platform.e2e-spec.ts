import { loadEnv } from '@platform/config';
import { describeServiceBasics } from '@platform/testing';
import { EvidenceReviewEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';

describeServiceBasics({
  service: 'evidence-review',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(EvidenceReviewEnv, env)),
});
