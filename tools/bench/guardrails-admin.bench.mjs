// Guardrails admin reads over a large audit: guardrails-admin from dist with api.enabled, a real
// ES256 token from a local JWKS, an audit table of --rows rows (default 1,000,000) spread over 30
// days, then GET /overview and GET /audit (first page, filtered, deep cursor) timed one at a time
// (p50/p95/p99) and under load (autocannon, --connections).
//   npm run build && node -r ./tools/swc-register.cjs tools/bench/guardrails-admin.bench.mjs [--rows 1000000]
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Agent, request } from 'undici';
import { load, root, startDist, stop, waitReady } from './lib.mjs';

const require = createRequire(import.meta.url);
const { TestJwksIssuer } = require('@platform/testing');
const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, samples: { type: 'string', default: '400' }, connections: { type: 'string', default: '10' }, duration: { type: 'string', default: '5' } },
});
const rows = Number(values.rows);
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const issuer = await new TestJwksIssuer().start();
const env = {
  DATABASE_URL: serverUrl,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  DATABASE_NAME: 'guardrails_bench',
  PORT: '3915',
  GUARDRAILS_API_ENABLED: 'true',
  IAM_JWKS_URL: issuer.jwksUrl,
  IAM_ISSUER: issuer.issuer,
};

async function seed() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS guardrails_bench WITH (FORCE)');
  await admin.end();
  const migrate = spawnSync(process.execPath, [path.join(root, 'dist/apps/guardrails-admin/cli.js'), 'migrate'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(migrate.stderr);
  const url = new URL(serverUrl);
  url.pathname = '/guardrails_bench';
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const started = Date.now();
  // Every 10th attempt blocked, every 25th observed (matched in monitor mode), the rest clean.
  await db.query(
    `INSERT INTO guardrails_injection_audit (prompt, blocked, rule_id, principal_id, ruleset_version, errored_rule_ids, match_start, match_end, occurred_at)
     SELECT 'Prompt number ' || g || ' asks about the quarterly report and the refund policy of order ' || (g % 977),
            g % 10 = 0,
            CASE WHEN g % 10 = 0 THEN (ARRAY['ignore_previous','reveal_system_prompt','role_override','exfiltrate'])[1 + g % 4]
                 WHEN g % 25 = 1 THEN 'role_override' END,
            'user-' || (g % 1000), 'v1', '[]'::jsonb, NULL, NULL,
            now() - ((${rows} - g)::float / ${rows}) * interval '30 days'
       FROM generate_series(1, ${rows}) AS g`,
  );
  await db.query('ANALYZE guardrails_injection_audit');
  await db.end();
  return Date.now() - started;
}

async function sequential(url, headers, count) {
  const dispatcher = new Agent({ connections: 1 });
  const samples = [];
  try {
    for (let i = 0; i < count + 20; i++) {
      const t = process.hrtime.bigint();
      const r = await request(url, { headers, dispatcher });
      if (r.statusCode !== 200) throw new Error(`${url} answered ${r.statusCode}: ${await r.body.text()}`);
      await r.body.dump();
      if (i >= 20) samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  } finally {
    await dispatcher.close();
  }
  samples.sort((a, b) => a - b);
  const at = (q) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 100) / 100;
  return { p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99) };
}

const seededMs = await seed();
const token = await issuer.mint({ scope: 'guardrails:admin', expiresInSec: 3600 });
const headers = { authorization: `Bearer ${token}` };
const svc = startDist('guardrails-admin', 'main.js', env);
const base = 'http://127.0.0.1:3915/guardrails/api';
const results = { rows, seeded_ms: seededMs, routes: {} };
try {
  await waitReady('http://127.0.0.1:3915/health/ready');
  const deep = Math.floor(rows / 2);
  const routes = {
    'GET /overview': '/overview',
    'GET /audit': '/audit',
    'GET /audit?blocked=true': '/audit?blocked=true',
    'GET /audit?rule_id=role_override': '/audit?rule_id=role_override',
    'GET /audit?principal_id=user-42': '/audit?principal_id=user-42',
    'GET /audit?q=order 976': '/audit?q=order%20976',
    [`GET /audit?cursor=${deep}`]: `/audit?cursor=${deep}`,
    'GET /audit?from=…&to=… (one day)': `/audit?from=${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}`,
  };
  for (const [label, route] of Object.entries(routes)) {
    const one = await sequential(base + route, headers, Number(values.samples));
    const loaded = await load({ url: base + route, headers, connections: Number(values.connections), duration: Number(values.duration) });
    results.routes[label] = { ...one, loaded: { connections: Number(values.connections), requests_per_sec: loaded.requests_per_sec, p50_ms: loaded.p50_ms, p99_ms: loaded.p99_ms, non_2xx: loaded.non_2xx } };
  }
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
} finally {
  await stop(svc);
  await issuer.stop();
}
