import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ROOT } from '../support/system-platform';

/**
 * What the runtime stage of docker/node-app.Dockerfile does, checked without a Docker engine: for
 * each app, the build's pruned dist/apps/<app>/package.json and package-lock.json install with
 * `npm ci --omit=dev` in an empty folder outside the repository (so nothing can be found in the
 * workspace's node_modules), the bundle is copied beside them, and every entrypoint the image
 * offers starts from there: `cli.js migrate`, then `main.js` and `worker.js` answer /health/live.
 */
interface ServicesModule {
  SERVICES: Array<{ name: string; port: number; database?: string; worker?: { healthPort: number } }>;
  GATEWAY: { name: string; port: number };
  serviceEnv(service: object, ctx: object): Record<string, string>;
  gatewayEnv(o: { port: number; offset: number }): Record<string, string>;
}

const OFFSET = 900; // ports apart from npm start's, the system tests' (+200) and the fault tests' (+700)
const namespace = `img${randomBytes(3).toString('hex')}_`;
const folders: string[] = [];
let services: ServicesModule;

function installRuntime(app: string): string {
  const dist = path.join(ROOT, 'dist/apps', app);
  if (!existsSync(path.join(dist, 'main.js'))) throw new Error(`dist/apps/${app}/main.js is missing: build first (npm test builds before Jest)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), `platform-image-${app}-`));
  folders.push(dir);
  for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(dist, f), path.join(dir, f));
  const ci = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (ci.status !== 0) throw new Error(`npm ci --omit=dev failed for ${app}:\n${ci.stderr}`);
  for (const entry of readdirSync(dist)) {
    if (entry !== 'node_modules') cpSync(path.join(dist, entry), path.join(dir, entry), { recursive: true });
  }
  return dir;
}

async function answersLive(url: string, child: ChildProcess, output: () => string): Promise<number> {
  // A hang guard, not a timing assertion: the loop ends as soon as the process answers or exits.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`);
    const status = await fetch(url)
      .then((r) => r.status)
      .catch(() => 0);
    if (status) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer from ${url}:\n${output()}`);
}

async function startAndProbe(dir: string, entry: string, env: Record<string, string>, url: string): Promise<number> {
  const child = spawn(process.execPath, [entry], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out = (out + d).slice(-4000)));
  child.stderr?.on('data', (d) => (out = (out + d).slice(-4000)));
  try {
    return await answersLive(url, child, () => out);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      child.kill('SIGKILL');
    }
  }
}

beforeAll(async () => {
  services = (await import(path.join(ROOT, 'tools/dev/services.mjs'))) as ServicesModule;
});

afterAll(async () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${namespace}%`]);
    for (const r of rows) await client.query(`DROP DATABASE "${r.datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}, 120_000);

describe('container runtime stage, done without a Docker engine', () => {
  const key = () => randomBytes(32).toString('base64');
  const ctx = () => ({
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    gatewayUrl: `http://127.0.0.1:${8080 + OFFSET}`,
    offset: OFFSET,
    namespace,
    secrets: { CRYPTO_KEYRING: `img1:${key()}`, SECRET_PEPPERS: `img1:${key()}` },
    extraEnv: {
      // Production requires the bootstrap credentials and real settings; give them as a deployment would.
      IAM_BOOTSTRAP_CLIENT_ID: 'image-bootstrap',
      IAM_BOOTSTRAP_CLIENT_SECRET: `img-${randomBytes(12).toString('hex')}`,
      IAM_BOOTSTRAP_USER_EMAIL: 'image@example.com',
      IAM_BOOTSTRAP_USER_PASSWORD: `img-${randomBytes(12).toString('hex')}`,
      KB_BOOTSTRAP_ADMIN_EMAIL: 'image-admin@example.com',
      KB_BOOTSTRAP_ADMIN_PASSWORD: `img-${randomBytes(12).toString('hex')}`,
      KB_DEMO_DOCUMENTS_DIR: '',
      KB_STORAGE_PATH: path.join(os.tmpdir(), `${namespace}kb-documents`),
    },
  });

  it.each(['iam', 'guardrails-admin', 'kb-api', 'evidence-review'])(
    '%s: installs from its pruned lock, migrates, and main.js (and worker.js) answer /health/live',
    async (app) => {
      const svc = services.SERVICES.find((s) => s.name === app)!;
      const env = services.serviceEnv(svc, ctx());
      const dir = installRuntime(app);
      const migrate = spawnSync(process.execPath, ['cli.js', 'migrate'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env, NODE_ENV: 'production' } });
      expect({ status: migrate.status, stderr: migrate.status === 0 ? '' : migrate.stderr }).toEqual({ status: 0, stderr: '' });
      expect(await startAndProbe(dir, 'main.js', env, `http://127.0.0.1:${svc.port + OFFSET}/health/live`)).toBe(200);
      if (svc.worker) {
        expect(existsSync(path.join(dir, 'worker.js'))).toBe(true);
        expect(await startAndProbe(dir, 'worker.js', env, `http://127.0.0.1:${svc.worker.healthPort + OFFSET}/health/live`)).toBe(200);
      }
    },
    240_000,
  );

  it('gateway: installs from its pruned lock and main.js answers /health/live', async () => {
    const dir = installRuntime('gateway');
    const port = services.GATEWAY.port + OFFSET;
    expect(await startAndProbe(dir, 'main.js', services.gatewayEnv({ port, offset: OFFSET }), `http://127.0.0.1:${port}/health/live`)).toBe(200);
  }, 240_000);
});
