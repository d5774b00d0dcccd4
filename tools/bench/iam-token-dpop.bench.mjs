// DPoP-bound client_credentials issuance next to plain Bearer issuance, on iam's lean token path,
// one process, in the same run: the price of one proof verification (ES256), its jti claim in Redis
// and the cnf claim. Every DPoP request carries its own proof (a replayed one would be refused).
//   npm run build && node tools/bench/iam-token-dpop.bench.mjs [--duration 10] [--connections 50]
import { generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { load, root, startDist, stop, waitReady } from './lib.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const secret = 'bench-secret-0123456789abcdef';
const key = () => randomBytes(32).toString('base64');
const port = 3903;
const issuer = `http://127.0.0.1:${port}`;
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  DATABASE_NAME: 'iam_bench_dpop',
  REDIS_PREFIX: 'iam-bench-dpop',
  PORT: String(port),
  IAM_ISSUER: issuer,
  OAUTH_RATE_LIMIT: '1000000000',
  CRYPTO_KEYRING: `b1:${key()}`,
  SECRET_PEPPERS: `b1:${key()}`,
  IAM_BOOTSTRAP_CLIENT_ID: 'bench-client',
  IAM_BOOTSTRAP_CLIENT_SECRET: secret,
};
const admin = new pg.Client({ connectionString: env.DATABASE_URL });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${env.DATABASE_NAME} WITH (FORCE)`);
await admin.end();
for (const task of ['migrate', 'seed']) {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/apps/iam/cli.js'), task], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`iam ${task} failed: ${r.stderr}`);
}

const tokenUrl = `${issuer}/oauth/token`;
const base = {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`bench-client:${secret}`).toString('base64')}`,
  },
  body: 'grant_type=client_credentials&scope=evidence%3Areview',
};

// Proofs made before the run (signing them during it would take the server's CPU): enough for
// warm-up and measurement at a generous rate, all within the 60 s iat window.
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = publicKey.export({ format: 'jwk' });
const b64 = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
const header = b64({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } });
const proofCount = (duration + 3) * 6000;
const iat = Math.floor(Date.now() / 1000);
const proofs = Array.from({ length: proofCount }, () => {
  const input = `${header}.${b64({ jti: randomUUID(), htm: 'POST', htu: tokenUrl, iat })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
});
let next = 0;
const dpopRequest = {
  ...base,
  requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, DPoP: proofs[next++ % proofCount] } }) }],
};

const child = startDist('iam', 'main.js', env);
try {
  await waitReady(`${issuer}/health/ready`);
  const check = await fetch(tokenUrl, { ...base, headers: { ...base.headers, DPoP: proofs[next++] } });
  const checked = await check.json();
  if (checked.token_type !== 'DPoP') throw new Error(`DPoP issuance failed: ${JSON.stringify(checked)}`);
  await load({ url: tokenUrl, ...base, duration: 3, connections });
  const bearer = await load({ url: tokenUrl, ...base, duration, connections }, child.pid);
  await load({ url: tokenUrl, ...dpopRequest, duration: 3, connections });
  const dpop = await load({ url: tokenUrl, ...dpopRequest, duration, connections }, child.pid);
  process.stdout.write(JSON.stringify({ connections, duration_s: duration, proofs_used: next, bearer, dpop }, null, 2) + '\n');
} finally {
  await stop(child);
}
