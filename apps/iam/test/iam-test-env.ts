import { randomBytes } from 'node:crypto';
import { loadEnv } from '@platform/config';
import { freePort, RunningService, ServiceUnderTest, startServiceForTest } from '@platform/testing';
import { IamEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';
import { httpOptions } from '../src/http-options';

const key = () => randomBytes(32).toString('base64');

/** iam as e2e tests boot it: fresh keys, its issuer URL fixed to the port it will listen on. */
export const iamUnderTest: ServiceUnderTest = {
  service: 'iam',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  loadWorkerModule: async () => (await import('../src/worker.module')).WorkerModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(IamEnv, env)),
  env: { CRYPTO_KEYRING: `t1:${key()}`, SECRET_PEPPERS: `p1:${key()}` },
  httpOptions,
};

/** `host` names the issuer's host: browsers accept `localhost`, never an IP, as a WebAuthn relying party. */
export async function startIam(env: Record<string, string> = {}, host = '127.0.0.1'): Promise<RunningService & { issuer: string }> {
  const port = await freePort();
  const issuer = `http://${host}:${port}`;
  const running = await startServiceForTest(iamUnderTest, {
    PORT: String(port),
    IAM_ISSUER: issuer,
    IAM_JWKS_URL: `${issuer}/.well-known/jwks.json`,
    OAUTH_RATE_LIMIT: '0',
    ...env,
  });
  return { ...running, issuer };
}
