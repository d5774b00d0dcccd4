// Small reviews over HTTP: evidence-review from dist with api.enabled, a real ES256 token from a
// local JWKS, autocannon POSTing a 3-claim review (dry run, so the log is not what is measured;
// --logged writes every review to the log). The same requests run on the lean request path and,
// with a query string, on the full Nest route, so both are measured under the same conditions.
//   npm run build && node -r ./tools/swc-register.cjs tools/bench/evidence-http.bench.mjs [--logged] [--lean-only]
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { load, root, startDist, stop, waitReady } from './lib.mjs';

const require = createRequire(import.meta.url);
const { TestJwksIssuer } = require('@platform/testing');
const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' }, logged: { type: 'boolean', default: false }, 'lean-only': { type: 'boolean', default: false } } });

const issuer = await new TestJwksIssuer().start();
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  DATABASE_NAME: 'evidence_bench',
  PORT: '3914',
  EVIDENCE_API_ENABLED: 'true',
  IAM_JWKS_URL: issuer.jwksUrl,
  IAM_ISSUER: issuer.issuer,
};
const migrate = spawnSync(process.execPath, [path.join(root, 'dist/apps/evidence-review/cli.js'), 'migrate'], { env: { ...process.env, ...env }, encoding: 'utf8' });
if (migrate.status !== 0) throw new Error(migrate.stderr);
const token = await issuer.mint({ scope: 'evidence:review', expiresInSec: 3600, extra: { tenant_id: 'bench' } });
const body = JSON.stringify({
  artifact: {
    artifact_id: 'bench',
    answer_text: 'Short answer.',
    claims: [
      { id: 'c1', text: 'It always works.', source_ids: ['s1'] },
      { id: 'c2', text: 'For children only.', source_ids: ['s2'] },
      { id: 'c3', text: 'Plain.', source_ids: ['s1', 's2'] },
    ],
    sources: [{ id: 's1', url: 'https://doi.org/10.1000/1' }, { id: 's2', declared_tier: 'news' }],
  },
  options: { dry_run: !values.logged },
});
const svc = startDist('evidence-review', 'main.js', env);
try {
  await waitReady('http://127.0.0.1:3914/health/ready');
  const results = {};
  const paths = [['lean', 'http://127.0.0.1:3914/evidence-risk-review/reviews']];
  if (!values['lean-only']) paths.push(['nest', 'http://127.0.0.1:3914/evidence-risk-review/reviews?via=nest']);
  for (const [path, url] of paths) {
    const request = { url, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body };
    await load({ ...request, duration: 3, connections: Number(values.connections) });
    results[path] = await load({ ...request, duration: Number(values.duration), connections: Number(values.connections) }, svc.pid);
  }
  process.stdout.write(JSON.stringify({ logged: values.logged, ...results }, null, 2) + '\n');
} finally {
  await stop(svc);
  await issuer.stop();
}
