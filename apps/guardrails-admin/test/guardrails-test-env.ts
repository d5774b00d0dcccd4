import { loadEnv } from '@platform/config';
import { ServiceUnderTest, startServiceWithIssuer } from '@platform/testing';
import { GuardrailsAdminEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

export const guardrailsAdminUnderTest: ServiceUnderTest = {
  service: 'guardrails-admin',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(GuardrailsAdminEnv, env)),
  httpOptions,
};

/** The service with a test JWKS issuer whose tokens it accepts; stop() ends both. */
export const startGuardrailsAdminWithIssuer = (env: Record<string, string> = {}) => startServiceWithIssuer(guardrailsAdminUnderTest, env);
