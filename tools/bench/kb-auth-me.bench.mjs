// GET /api/auth/me with a personal access token: kb-api from dist with a freshly migrated
// `kb_bench` database, the seeded bootstrap admin and a token issued through POST /api/auth/token,
// then autocannon with 50 connections. The same request with a query string takes the full Nest
// route, so both paths are measured in the same process and run; last, a bare Node handler with the
// same body shows what the machine allows at the time (--skip-baseline leaves it out).
//   npx nx run-many -t build --projects=kb-api && node tools/bench/kb-auth-me.bench.mjs
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { load, root, startDist, stop, waitReady } from './lib.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'lean-only': { type: 'boolean', default: false },
    'cpu-prof-dir': { type: 'string' },
    'skip-baseline': { type: 'boolean', default: false },
  },
});

const key = () => randomBytes(32).toString('base64');
const port = '3916';
const base = `http://127.0.0.1:${port}`;
const admin = {
  email: 'bench-admin@example.com',
  password: `bench-${randomBytes(12).toString('hex')}`,
};
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_PREFIX: 'kb-bench',
  DATABASE_NAME: 'kb_bench',
  KB_GUARDRAILS_DATABASE_NAME: 'kb_bench_guardrails',
  KB_STORAGE_PATH: path.join(root, '.data/kb-bench-documents'),
  PORT: port,
  CRYPTO_KEYRING: `b1:${key()}`,
  SECRET_PEPPERS: `p1:${key()}`,
  KB_BOOTSTRAP_ADMIN_EMAIL: admin.email,
  KB_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
};

function cli(command) {
  const run = spawnSync(process.execPath, [path.join(root, 'dist/apps/kb-api/cli.js'), command], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`kb-api ${command}: ${run.stderr}`);
}

// A fresh database each run, so the seeded admin gets this run's password.
const pg = spawnSync(
  'psql',
  [env.DATABASE_URL, '-qc', `DROP DATABASE IF EXISTS ${env.DATABASE_NAME} WITH (FORCE)`],
  { encoding: 'utf8' },
);
if (pg.status !== 0) throw new Error(pg.stderr);
cli('migrate');
cli('seed');

// --cpu-prof-dir writes a V8 CPU profile of the service (open it in Chrome DevTools) when it stops.
const svc = values['cpu-prof-dir']
  ? spawn(
      process.execPath,
      [
        '--cpu-prof',
        `--cpu-prof-dir=${values['cpu-prof-dir']}`,
        path.join(root, 'dist/apps/kb-api/main.js'),
      ],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    )
  : startDist('kb-api', 'main.js', env);
try {
  await waitReady(`${base}/health/ready`);
  const issued = await fetch(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...admin, device_name: 'bench' }),
  });
  if (issued.status !== 201)
    throw new Error(`token issue answered ${issued.status}: ${await issued.text()}`);
  const { token } = await issued.json();
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const check = await fetch(`${base}/api/auth/me`, { headers });
  if (check.status !== 200) throw new Error(`/api/auth/me answered ${check.status}`);

  const results = {};
  const paths = [['lean', `${base}/api/auth/me`]];
  if (!values['lean-only']) paths.push(['nest', `${base}/api/auth/me?via=nest`]);
  for (const [name, url] of paths) {
    const request = { url, method: 'GET', headers };
    await load({ ...request, duration: 3, connections: Number(values.connections) });
    results[name] = await load(
      { ...request, duration: Number(values.duration), connections: Number(values.connections) },
      svc.pid,
    );
  }
  if (!values['skip-baseline'])
    results.bare_node_handler = await bareBaseline(await check.text(), values);
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
} finally {
  await stop(svc);
}

/**
 * The machine's state during the run: a bare Node HTTP handler answering the same body, loaded
 * the same way. Other work on the cores moves this figure as much as the service's.
 */
async function bareBaseline(body, options) {
  const server = spawn(
    process.execPath,
    [
      '-e',
      `const body = Buffer.from(process.argv[1]);
       require('node:http').createServer((req, res) => {
         res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
         res.end(body);
       }).listen(3917, '127.0.0.1');`,
      body,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  try {
    await waitReady('http://127.0.0.1:3917/');
    return await load(
      {
        url: 'http://127.0.0.1:3917/',
        duration: Number(options.duration),
        connections: Number(options.connections),
      },
      server.pid,
    );
  } finally {
    await stop(server);
  }
}
