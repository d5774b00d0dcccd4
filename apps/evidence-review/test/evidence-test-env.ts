import { loadEnv } from '@platform/config';
import { ServiceUnderTest } from '@platform/testing';
import { EvidenceReviewEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

export const evidenceUnderTest: ServiceUnderTest = {
  service: 'evidence-review',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(EvidenceReviewEnv, env)),
  httpOptions,
};
