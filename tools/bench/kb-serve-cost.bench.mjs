// What one retrieve or chat costs the machine: kb-api from dist/ on a database kb-retrieve.bench.mjs left in place
// (--keep), 10 users in a closed loop over that benchmark's queries, and per request the CPU time of kb-api (user and
// system, from /proc), of every Postgres process and of this client. Throughput and latency move with whatever else
// the machine does; CPU per request moves far less, so it is what a change to kb-api's work is judged by. Each round
// follows a warm-up round of the same length (the first seconds after boot pay for JIT and first-time caches).
// Linux only (/proc).
//   node -r ./tools/swc-register.cjs tools/bench/kb-retrieve.bench.mjs --scifact <folder> --keep
//   node -r ./tools/swc-register.cjs tools/bench/kb-serve-cost.bench.mjs --scifact <folder> [--route retrieve|chat]
//     [--man /usr/share/man] [--database kb_retrieve_bench] [--seconds 20] [--rounds 2] [--users 10] [--port 3960]
// kb-api's environment can be varied with --env KEY=VALUE (repeatable), e.g. --env DATABASE_PREPARE_AFTER=0.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CORPUS_OPTIONS, corpusAndQueries, interleavedQueries } from './kb-bench-corpus.mjs';
import { jsonPoster, kbApiEnv, percentile } from './kb-bench-support.mjs';
import { startDist, stop, waitReady } from './lib.mjs';

const require = createRequire(import.meta.url);
const { TestJwksIssuer } = require('@platform/testing');

const { values } = parseArgs({
  options: {
    ...CORPUS_OPTIONS,
    route: { type: 'string', default: 'retrieve' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    users: { type: 'string', default: '10' },
    port: { type: 'string', default: '3960' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
if (!['retrieve', 'chat'].includes(values.route)) throw new Error('--route is retrieve or chat');

// The same queries, in the same interleaving, as kb-retrieve.bench.mjs.
const queries = interleavedQueries(corpusAndQueries(values).queries);

const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const issuer = await new TestJwksIssuer().start();
const env = {
  ...kbApiEnv(values.database, port, issuer),
  ...Object.fromEntries(values.env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
};

/** User and system CPU seconds of a process so far (clock ticks of 1/100 s). */
const cpuOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
};
const postgresCpu = () => {
  let sum = 0;
  for (const pid of execFileSync('pgrep', ['-f', 'postgres']).toString().trim().split('\n')) {
    try {
      const c = cpuOf(pid);
      sum += c.user + c.system;
    } catch {
      /* gone meanwhile */
    }
  }
  return sum;
};

const api = startDist('kb-api', 'main.js', env);
try {
  await waitReady(`${base}/health/ready`, 90_000);
  const dbUrl = new URL(env.DATABASE_URL);
  dbUrl.pathname = `/${values.database}`;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  const [{ n: chunkCount }] = (await db.query(`SELECT count(*)::int AS n FROM kb_chunks WHERE tenant_id = 'default'`)).rows;
  await db.end();
  // The index loads in the background from boot; until it holds every chunk, queries are ranked in SQL.
  for (const started = Date.now(); ; ) {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    if (Number(/^kb_lexical_index_chunks(?:\{[^}]*\})? (\S+)$/m.exec(metrics)?.[1] ?? 0) >= chunkCount) break;
    if (Date.now() - started > 300_000) throw new Error('the lexical index did not load in 300 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  // The user kb-retrieve.bench.mjs created (tokenFor).
  const login = await fetch(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'correct horse battery staple' }),
  });
  const { token } = await login.json();
  if (!token) throw new Error(`no token (was the database left by kb-retrieve.bench.mjs --keep?): ${login.status}`);
  const poster = jsonPoster(base, Number(values.users));
  const post = async (q) => {
    const started = performance.now();
    const r = await poster(`/api/kb/${values.route}`, values.route === 'chat' ? { question: q } : { query: q }, { authorization: `Bearer ${token}` });
    if (r.status !== 200) throw new Error(`${values.route} answered ${r.status}`);
    return performance.now() - started;
  };
  let next = 0;
  const round = async (seconds) => {
    const samples = [];
    const deadline = Date.now() + seconds * 1000;
    const api0 = cpuOf(api.pid);
    const pg0 = postgresCpu();
    const client0 = process.cpuUsage();
    const started = performance.now();
    const user = async () => {
      while (Date.now() < deadline) samples.push(await post(queries[next++ % queries.length]));
    };
    await Promise.all(Array.from({ length: Number(values.users) }, user));
    const elapsed = (performance.now() - started) / 1000;
    const api1 = cpuOf(api.pid);
    const client = process.cpuUsage(client0);
    const perRequest = (seconds) => Math.round((seconds * 1000 * 100) / samples.length) / 100;
    samples.sort((a, b) => a - b);
    return {
      requests: samples.length,
      requests_per_sec: Math.round(samples.length / elapsed),
      p50_ms: percentile(samples, 0.5),
      p95_ms: percentile(samples, 0.95),
      kb_api_cpu_ms_per_request: perRequest(api1.user - api0.user + api1.system - api0.system),
      kb_api_system_cpu_ms_per_request: perRequest(api1.system - api0.system),
      postgres_cpu_ms_per_request: perRequest(postgresCpu() - pg0),
      client_cpu_ms_per_request: perRequest((client.user + client.system) / 1e6),
    };
  };
  const rounds = [];
  for (let i = 0; i < Number(values.rounds); i++) {
    await round(Number(values.seconds));
    rounds.push(await round(Number(values.seconds)));
  }
  console.log(JSON.stringify({ route: values.route, users: Number(values.users), seconds: Number(values.seconds), env: values.env, rounds }, null, 2));
} finally {
  await stop(api);
  await issuer.stop();
}
