import { loadEnv } from '@platform/config';
import { ServiceUnderTest, startServiceForTest, TestJwksIssuer } from '@platform/testing';
import { GuardrailsAdminEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

export const guardrailsAdminUnderTest: ServiceUnderTest = {
  service: 'guardrails-admin',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(GuardrailsAdminEnv, env)),
  httpOptions,
};

/** guardrails-admin with a test JWKS issuer whose tokens it accepts; stop() ends both. */
export async function startGuardrailsAdminWithIssuer(env: Record<string, string> = {}) {
  const issuer = await new TestJwksIssuer().start();
  const svc = await startServiceForTest(guardrailsAdminUnderTest, { IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer, ...env });
  return {
    issuer,
    svc,
    stop: async () => {
      await svc.stop();
      await issuer.stop();
    },
  };
}
