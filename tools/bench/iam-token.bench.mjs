// client_credentials token issuance: iam (Postgres-backed clients, ES256 JWT access tokens; lean
// path, then the full Nest route) and oidc-provider configured the same way (JWT access tokens,
// in-memory), one after the other, each as one process and as --processes processes sharing the
// port (iam's HTTP_PROCESSES; node:cluster for oidc-provider). Every iam request is counted by the
// per-IP rate limit.
//   npm run build && node tools/bench/iam-token.bench.mjs [--duration 10] [--connections 50] [--processes 2]
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { load, root, startDist, stop, waitReady } from './lib.mjs';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' }, processes: { type: 'string', default: '2' } },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const processes = Number(values.processes);
const secret = 'bench-secret-0123456789abcdef';
const key = () => randomBytes(32).toString('base64');
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  DATABASE_NAME: 'iam_bench',
  REDIS_PREFIX: 'iam-bench',
  PORT: '3901',
  IAM_ISSUER: 'http://127.0.0.1:3901',
  // High enough never to refuse, but every request is still counted in Redis as in production.
  OAUTH_RATE_LIMIT: '1000000000',
  CRYPTO_KEYRING: `b1:${key()}`,
  SECRET_PEPPERS: `b1:${key()}`,
  IAM_BOOTSTRAP_CLIENT_ID: 'bench-client',
  IAM_BOOTSTRAP_CLIENT_SECRET: secret,
};
// Fresh database per run: the key rings above are new each time, so old encrypted keys would not open.
const admin = new pg.Client({ connectionString: env.DATABASE_URL });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${env.DATABASE_NAME} WITH (FORCE)`);
await admin.end();
for (const task of ['migrate', 'seed']) {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/apps/iam/cli.js'), task], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`iam ${task} failed: ${r.stderr}`);
}

const request = {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`bench-client:${secret}`).toString('base64')}`,
  },
  body: 'grant_type=client_credentials&scope=evidence%3Areview',
};

async function measure(url, pid) {
  await load({ url, ...request, duration: 3, connections });
  return load({ url, ...request, duration, connections }, pid);
}

/** Runs `measure` against a started server, stopping it whatever happens. */
async function against(child, readyUrl, measureIt) {
  try {
    await waitReady(readyUrl);
    return await measureIt(child.pid);
  } finally {
    await stop(child);
  }
}

const iamReady = 'http://127.0.0.1:3901/health/ready';
const tokenUrl = 'http://127.0.0.1:3901/oauth/token';
const [iamResult, iamNestResult] = await against(startDist('iam', 'main.js', env), iamReady, async (pid) => [
  await measure(tokenUrl, pid),
  // A query string takes the same request past the lean path to the full Nest route.
  await measure(`${tokenUrl}?via=nest`, pid),
]);
const iamProcessesResult = await against(startDist('iam', 'main.js', { ...env, HTTP_PROCESSES: String(processes) }), iamReady, (pid) =>
  measure(tokenUrl, pid),
);

const reference = (count) =>
  spawn(process.execPath, [path.join(root, 'tools/bench/oidc-provider-server.mjs')], {
    env: { ...process.env, PORT: '3902', CLIENT_SECRET: secret, NODE_ENV: 'production', PROCESSES: String(count) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
const referenceReady = 'http://127.0.0.1:3902/.well-known/openid-configuration';
const referenceResult = await against(reference(1), referenceReady, (pid) => measure('http://127.0.0.1:3902/token', pid));
const referenceProcessesResult = await against(reference(processes), referenceReady, (pid) => measure('http://127.0.0.1:3902/token', pid));

const ratio = (a, b) => Math.round((a.requests_per_sec / b.requests_per_sec) * 100) / 100;
process.stdout.write(
  JSON.stringify(
    {
      connections,
      duration_s: duration,
      iam: iamResult,
      iam_via_nest_route: iamNestResult,
      [`iam_${processes}_processes`]: iamProcessesResult,
      oidc_provider: referenceResult,
      [`oidc_provider_${processes}_processes`]: referenceProcessesResult,
      iam_to_oidc_provider_throughput: ratio(iamResult, referenceResult),
      [`iam_to_oidc_provider_throughput_${processes}_processes`]: ratio(iamProcessesResult, referenceProcessesResult),
    },
    null,
    2,
  ) + '\n',
);
