import { loadEnv } from '@platform/config';
import { ServiceUnderTest, startServiceWithIssuer } from '@platform/testing';
import { EvidenceReviewEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

export const evidenceUnderTest: ServiceUnderTest = {
  service: 'evidence-review',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(EvidenceReviewEnv, env)),
  httpOptions,
};

/** The service with a test JWKS issuer whose tokens it accepts; stop() ends both. */
export const startEvidenceWithIssuer = (env: Record<string, string> = {}) => startServiceWithIssuer(evidenceUnderTest, env);
