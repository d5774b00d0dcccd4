import { randomBytes } from 'node:crypto';
import { loadEnv } from '@platform/config';
import { ServiceUnderTest, startServiceForTest, TestJwksIssuer } from '@platform/testing';
import { DataSource } from 'typeorm';
import { KbApiEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

const key = () => randomBytes(32).toString('base64');

export const kbUnderTest: ServiceUnderTest = {
  service: 'kb-api',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  loadWorkerModule: async () => (await import('../src/worker.module')).WorkerModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(KbApiEnv, env)),
  env: { CRYPTO_KEYRING: `t1:${key()}`, SECRET_PEPPERS: `p1:${key()}` },
  httpOptions,
};

/** kb-api with a test JWKS issuer and a direct connection to its database for fixtures. */
export async function startKb(env: Record<string, string> = {}, options: { probes?: boolean } = {}) {
  const issuer = await new TestJwksIssuer().start();
  const loadAppModule = options.probes ? async () => (await import('./probe.module')).appWithProbes() : kbUnderTest.loadAppModule;
  const svc = await startServiceForTest({ ...kbUnderTest, loadAppModule }, { IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer, ...env });
  const db = await new DataSource({ type: 'postgres', url: svc.db!.url }).initialize();
  return {
    issuer,
    svc,
    db,
    stop: async () => {
      await db.destroy();
      await svc.stop();
      await issuer.stop();
    },
  };
}
