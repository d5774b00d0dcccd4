import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/**
 * The whole platform as `npm start` runs it (built apps, every service, worker and the gateway as
 * processes), for the system tests: ports moved by an offset, databases, Redis prefixes and
 * channels under a fresh namespace, so it runs beside a developer's platform and beside another
 * system test. Callers drive it only through the gateway.
 */
export const ROOT = path.resolve(__dirname, '../../..');

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface LaunchedPlatform {
  gatewayUrl: string;
  probes: Array<{ label: string; url: string }>;
  kill(label: string, signal?: NodeJS.Signals): Promise<void>;
  relaunch(label: string): void;
  stop(): Promise<void>;
}
interface PlatformModule {
  migrateAndSeed(ctx: object): void;
  launchPlatform(ctx: object, o: { logDir: string }): LaunchedPlatform;
  waitReady(probes: LaunchedPlatform['probes'], timeoutMs?: number): Promise<string[]>;
}
interface ServicesModule {
  SERVICES: Array<{ name: string; database?: string }>;
  serviceEnv(service: object, ctx: object): Record<string, string>;
}

export interface SystemPlatformOptions {
  offset: number;
  databaseUrl?: string;
  redisUrl?: string;
  /** Added to (and overriding) every process's environment. */
  env?: Record<string, string>;
}

export interface SystemPlatform {
  gw: string;
  logDir: string;
  namespace: string;
  bootstrap: { id: string; secret: string };
  admin: { email: string; password: string };
  /** Every secret the run created; none may appear in any log. */
  secrets: Set<string>;
  processes: LaunchedPlatform;
  probes: LaunchedPlatform['probes'];
  waitReady(timeoutMs?: number): Promise<string[]>;
  json(method: string, url: string, token: string | null, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json }>;
  form(url: string, body: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  clientToken(scope: string, id?: string, secret?: string): Promise<string>;
  /** A KB personal access token of the bootstrap super-admin. */
  kbToken(): Promise<string>;
  /**
   * Runs a service's CLI. Asynchronously: a synchronous spawn stopped this process's event loop for the CLI's whole
   * run, so on a loaded machine the traffic it drives could reuse a keep-alive connection the gateway had meanwhile
   * closed as idle (a client-side "other side closed", not a platform failure).
   */
  cli(service: string, ...args: string[]): Promise<void>;
  /** Stops every process, drops the namespace's databases and files. */
  stop(): Promise<void>;
}

export const basicAuth = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export async function startSystemPlatform(options: SystemPlatformOptions): Promise<SystemPlatform> {
  for (const app of ['iam', 'guardrails-admin', 'kb-api', 'evidence-review', 'gateway']) {
    if (!existsSync(path.join(ROOT, 'dist/apps', app, 'main.js'))) throw new Error(`dist/apps/${app}/main.js is missing: build first (npm test builds before Jest)`);
  }
  const namespace = `sys${randomBytes(3).toString('hex')}_`;
  const logDir = path.join(ROOT, 'tmp', 'system-logs', namespace);
  const storage = path.join(ROOT, 'tmp', 'system-kb', namespace);
  const bootstrap = { id: 'platform-bootstrap', secret: `sys-bootstrap-${randomBytes(12).toString('hex')}` };
  const admin = { email: 'admin@example.com', password: `sys-admin-${randomBytes(12).toString('hex')}` };
  const userPassword = `sys-user-${randomBytes(8).toString('hex')}`;
  const secrets = new Set<string>([bootstrap.secret, admin.password, userPassword]);
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL!;
  const services = (await import(path.join(ROOT, 'tools/dev/services.mjs'))) as ServicesModule;
  const launcher = (await import(path.join(ROOT, 'tools/dev/platform.mjs'))) as PlatformModule;
  const key = () => randomBytes(32).toString('base64');
  const ctx = {
    databaseUrl,
    redisUrl: options.redisUrl ?? process.env.REDIS_URL,
    gatewayUrl: `http://127.0.0.1:${8080 + options.offset}`,
    offset: options.offset,
    namespace,
    secrets: { CRYPTO_KEYRING: `sys1:${key()}`, SECRET_PEPPERS: `sys1:${key()}` },
    extraEnv: {
      LOG_LEVEL: 'info',
      IAM_BOOTSTRAP_CLIENT_ID: bootstrap.id,
      IAM_BOOTSTRAP_CLIENT_SECRET: bootstrap.secret,
      IAM_BOOTSTRAP_USER_EMAIL: 'user@example.com',
      IAM_BOOTSTRAP_USER_PASSWORD: userPassword,
      KB_BOOTSTRAP_ADMIN_EMAIL: admin.email,
      KB_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
      KB_COOKIE_SECURE: 'false',
      // Live clients here request many tokens; the limit itself is tested on its own.
      OAUTH_RATE_LIMIT: '100000',
      KB_DEMO_DOCUMENTS_DIR: '',
      KB_STORAGE_PATH: storage,
      ...options.env,
    },
  };
  launcher.migrateAndSeed(ctx);
  const processes = launcher.launchPlatform(ctx, { logDir });
  const gw = processes.gatewayUrl;

  const form = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(gw + url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });
  const json: SystemPlatform['json'] = async (method, url, token, body, headers = {}) => {
    const r = await fetch(gw + url, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let parsed: Json | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Json) : null;
    } catch {
      parsed = { text };
    }
    return { status: r.status, body: parsed as Json };
  };
  const platform: SystemPlatform = {
    gw,
    logDir,
    namespace,
    bootstrap,
    admin,
    secrets,
    processes,
    probes: processes.probes,
    waitReady: (timeoutMs = 180_000) => launcher.waitReady(processes.probes, timeoutMs),
    json,
    form,
    async clientToken(scope, id = bootstrap.id, secret = bootstrap.secret) {
      const r = await form('/oauth/token', { grant_type: 'client_credentials', scope }, { authorization: basicAuth(id, secret) });
      const body = (await r.json()) as Json;
      if (r.status !== 200) throw new Error(`token ${r.status}: ${JSON.stringify(body)}`);
      secrets.add(body.access_token);
      return body.access_token as string;
    },
    async kbToken() {
      const r = await json('POST', '/api/auth/token', null, { email: admin.email, password: admin.password, device_name: 'system-test' });
      if (r.status !== 201) throw new Error(`kb token ${r.status}: ${JSON.stringify(r.body)}`);
      secrets.add(r.body.token);
      return r.body.token as string;
    },
    async cli(service, ...args) {
      const svc = services.SERVICES.find((s) => s.name === service)!;
      try {
        await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/apps', service, 'cli.js'), ...args], { cwd: ROOT, env: { ...process.env, ...services.serviceEnv(svc, ctx) }, encoding: 'utf8' });
      } catch (e) {
        throw new Error(`${service} ${args.join(' ')}: ${(e as { stderr?: string }).stderr ?? (e as Error).message}`);
      }
    },
    async stop() {
      await processes.stop();
      const pg = new Client({ connectionString: databaseUrl });
      await pg.connect();
      try {
        for (const db of ['iam', 'guardrails', 'kb', 'evidence']) await pg.query(`DROP DATABASE IF EXISTS "${namespace}${db}" WITH (FORCE)`);
      } finally {
        await pg.end();
      }
      rmSync(storage, { recursive: true, force: true });
    },
  };
  const notReady = await platform.waitReady();
  if (notReady.length) {
    await processes.stop();
    throw new Error(`not ready: ${notReady.join(', ')} (logs in ${logDir})`);
  }
  return platform;
}
