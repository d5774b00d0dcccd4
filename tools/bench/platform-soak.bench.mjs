// Mixed-traffic soak through the gateway: the whole platform as `npm start` runs it (ports moved by
// 400, its own databases and Redis prefixes), driven for --duration seconds by --connections
// concurrent clients, each picking a route by weight: client_credentials tokens, KB chat and
// search, evidence reviews, admin reads. Reports each route's p50/p95/p99, status counts (5xx must
// be zero) and every process's resident memory sampled over the run (it must stay flat).
// Run: npm run build && node tools/bench/platform-soak.bench.mjs [--duration 300] [--connections 16]
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Agent, request } from 'undici';
import { launchPlatform, migrateAndSeed, root, waitReady } from '../dev/platform.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '300' }, connections: { type: 'string', default: '16' } } });
const durationS = Number(values.duration);
const connections = Number(values.connections);
const OFFSET = 400;
const namespace = `soak${randomBytes(3).toString('hex')}_`;
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const bootstrap = { id: 'platform-bootstrap', secret: `soak-${randomBytes(12).toString('hex')}` };
const admin = { email: 'admin@example.com', password: `soak-${randomBytes(12).toString('hex')}` };
const key = () => randomBytes(32).toString('base64');
const ctx = {
  databaseUrl,
  redisUrl,
  gatewayUrl: `http://127.0.0.1:${8080 + OFFSET}`,
  offset: OFFSET,
  namespace,
  secrets: { CRYPTO_KEYRING: `soak1:${key()}`, SECRET_PEPPERS: `soak1:${key()}` },
  extraEnv: {
    LOG_LEVEL: 'warn',
    IAM_BOOTSTRAP_CLIENT_ID: bootstrap.id,
    IAM_BOOTSTRAP_CLIENT_SECRET: bootstrap.secret,
    KB_BOOTSTRAP_ADMIN_EMAIL: admin.email,
    KB_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    KB_COOKIE_SECURE: 'false',
    // Rate limits protect real deployments from one client; here one client is the whole load.
    OAUTH_RATE_LIMIT: '1000000',
    KB_STORAGE_PATH: path.join(root, 'tmp', 'soak-kb', namespace),
  },
};

const rssMb = (pid) => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return null;
  }
};
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);
const round = (ms) => Math.round(ms * 10) / 10;

migrateAndSeed(ctx);
const platform = launchPlatform(ctx, { logDir: path.join(root, 'tmp', 'soak-logs', namespace) });
const gw = platform.gatewayUrl;
const dispatcher = new Agent({ connections: connections * 2, keepAliveTimeout: 30_000 });
const call = async (method, url, { token, body, form, basic } = {}) => {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (basic) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  let payload;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await request(gw + url, { method, headers, body: payload, dispatcher });
  const text = await r.body.text();
  return { status: r.statusCode, text };
};

try {
  const notReady = await waitReady(platform.probes, 180_000);
  if (notReady.length) throw new Error(`not ready: ${notReady.join(', ')}`);
  const tokenOf = async (scope) => JSON.parse((await call('POST', '/oauth/token', { form: { grant_type: 'client_credentials', scope }, basic: `${bootstrap.id}:${bootstrap.secret}` })).text).access_token;
  const serviceToken = await tokenOf('guardrails:admin evidence:review');
  const kbToken = JSON.parse((await call('POST', '/api/auth/token', { body: { email: admin.email, password: admin.password, device_name: 'soak' } })).text).token;
  // The demo documents (the platform's own docs) are indexed by the worker before traffic starts.
  await new Promise((r) => setTimeout(r, 5000));

  const review = { artifact: { artifact_id: 'soak', answer_text: 'Ledger RPO is 15 minutes.', claims: [{ id: 'c1', text: 'The ledger RPO is 15 minutes.', source_ids: ['s1'] }], sources: [{ id: 's1', url: 'https://doi.org/10.1000/1' }] } };
  const questions = ['How does the gateway route requests?', 'How are client secrets rotated?', 'What does the guardrails screen do?', 'How do I run the tests?', 'How is a signing key rotated?'];
  const routes = [
    { name: 'POST /oauth/token (client_credentials)', weight: 2, run: () => call('POST', '/oauth/token', { form: { grant_type: 'client_credentials', scope: 'evidence:review' }, basic: `${bootstrap.id}:${bootstrap.secret}` }) },
    { name: 'POST /api/kb/chat', weight: 2, run: (i) => call('POST', '/api/kb/chat', { token: kbToken, body: { question: questions[i % questions.length] } }) },
    { name: 'GET /api/kb/documents/search', weight: 3, run: (i) => call('GET', `/api/kb/documents/search?q=${encodeURIComponent(['gateway', 'secret rotation', 'guardrails', 'benchmarks', 'runbook'][i % 5])}`, { token: kbToken }) },
    { name: 'POST /evidence-risk-review/reviews', weight: 3, run: () => call('POST', '/evidence-risk-review/reviews', { token: serviceToken, body: review }) },
    { name: 'GET /guardrails/api/overview', weight: 1, run: () => call('GET', '/guardrails/api/overview', { token: serviceToken }) },
    { name: 'GET /api/admin/users', weight: 1, run: () => call('GET', '/api/admin/users?per_page=20', { token: kbToken }) },
    { name: 'GET /api/auth/me', weight: 2, run: () => call('GET', '/api/auth/me', { token: kbToken }) },
  ];
  const table = routes.flatMap((r) => Array(r.weight).fill(r));
  const stats = new Map(routes.map((r) => [r.name, { latencies: [], statuses: {} }]));
  const memory = new Map(platform.children.map((c) => [c.label, []]));
  const sampleMemory = () => {
    for (const c of platform.children) memory.get(c.label).push(rssMb(c.child.pid));
  };

  sampleMemory();
  const sampler = setInterval(sampleMemory, 10_000);
  const started = Date.now();
  const endAt = started + durationS * 1000;
  let seq = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < endAt) {
        const i = seq++;
        const route = table[i % table.length];
        const t0 = performance.now();
        let status;
        try {
          status = (await route.run(i)).status;
        } catch {
          status = 'network_error';
        }
        const s = stats.get(route.name);
        s.latencies.push(performance.now() - t0);
        s.statuses[status] = (s.statuses[status] ?? 0) + 1;
      }
    }),
  );
  clearInterval(sampler);
  sampleMemory();
  const elapsedS = (Date.now() - started) / 1000;

  const summary = {
    duration_s: Math.round(elapsedS),
    connections,
    total_requests: seq,
    requests_per_sec: Math.round(seq / elapsedS),
    server_errors_5xx: [...stats.values()].reduce((n, s) => n + Object.entries(s.statuses).filter(([k]) => /^5/.test(k) || k === 'network_error').reduce((a, [, v]) => a + v, 0), 0),
    routes: Object.fromEntries(
      [...stats.entries()].map(([name, s]) => {
        const sorted = s.latencies.sort((a, b) => a - b);
        return [name, { requests: sorted.length, p50_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), p99_ms: round(percentile(sorted, 99)), statuses: s.statuses }];
      }),
    ),
    // Resident memory per process: after warm-up (first minute), at the end, the peak, and the
    // mean of the second half against the first half after warm-up (flat: close to 1).
    rss_mb: Object.fromEntries(
      [...memory.entries()].map(([label, samples]) => {
        const known = samples.filter((x) => x !== null);
        const warmed = known.slice(Math.min(known.length - 1, 6));
        const half = Math.floor(warmed.length / 2);
        const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
        return [
          label,
          {
            start: known[0],
            after_1_min: warmed[0],
            end: known[known.length - 1],
            peak: Math.max(...known),
            second_half_vs_first: Math.round((mean(warmed.slice(half)) / mean(warmed.slice(0, half))) * 100) / 100,
            every_10_s: samples,
          },
        ];
      }),
    ),
  };
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
} finally {
  await platform.stop();
  await dispatcher.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (const db of ['iam', 'guardrails', 'kb', 'evidence']) await client.query(`DROP DATABASE IF EXISTS "${namespace}${db}" WITH (FORCE)`);
  await client.end();
  rmSync(path.join(root, 'tmp', 'soak-kb', namespace), { recursive: true, force: true });
}
