import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEnv } from '@platform/config';
import { buildDataSourceOptions, migrateDatabase } from '@platform/database';
import { GUARDRAILS_MIGRATIONS } from '@platform/guardrails';
import { ServiceUnderTest, startServiceForTest, TestJwksIssuer } from '@platform/testing';
import { DataSource } from 'typeorm';
import { KbApiEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

const key = () => randomBytes(32).toString('base64');

/**
 * Runs right before the app boots, with the test's env in place: the guardrails tables go into the
 * test's own database (dropped with it), documents into a temporary directory, and SettingsChanged
 * onto a channel of this test file only.
 */
async function prepareKbDependencies(): Promise<void> {
  const database = process.env.DATABASE_NAME!;
  Object.assign(process.env, {
    KB_GUARDRAILS_DATABASE_NAME: database,
    KB_STORAGE_PATH: process.env.KB_STORAGE_PATH_OVERRIDE ?? mkdtempSync(path.join(tmpdir(), 'kb-docs-')),
    GUARDRAILS_SETTINGS_CHANNEL: `${process.env.REDIS_PREFIX}:guardrails.SettingsChanged`,
  });
  await migrateDatabase(buildDataSourceOptions({ url: process.env.DATABASE_URL!, database, entities: [], migrations: GUARDRAILS_MIGRATIONS }));
}

export const kbUnderTest: ServiceUnderTest = {
  service: 'kb-api',
  loadAppModule: async () => {
    await prepareKbDependencies();
    return (await import('../src/app.module')).AppModule;
  },
  loadWorkerModule: async () => (await import('../src/worker.module')).WorkerModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(KbApiEnv, env)),
  // WORKER_HEALTH_PORT 0: a worker started by a test never takes the fixed port of a running platform.
  env: { CRYPTO_KEYRING: `t1:${key()}`, SECRET_PEPPERS: `p1:${key()}`, WORKER_HEALTH_PORT: '0' },
  httpOptions,
};

/** kb-api with a test JWKS issuer and a direct connection to its database for fixtures. */
export async function startKb(env: Record<string, string> = {}, options: { probes?: boolean } = {}) {
  const issuer = await new TestJwksIssuer().start();
  const loadAppModule = options.probes
    ? async () => {
        await prepareKbDependencies();
        return (await import('./probe.module')).appWithProbes();
      }
    : kbUnderTest.loadAppModule;
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
