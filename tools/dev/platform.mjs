// Runs the built platform the way `npm start` does — migrate and seed every service, then start
// every service, worker and the gateway as child processes with logs to files, and wait until all
// are ready — for `npm start` and for the system tests (which run a second platform beside it).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY, gatewayEnv, serviceEnv, SERVICES } from './services.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (name, entry) => path.join(root, 'dist', 'apps', name, entry);
/** A process ended by a signal has no exit code, only a signal code. */
const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

/** `cli.js migrate` then `cli.js seed` for each service, in order; throws with the failing task's stderr. */
export function migrateAndSeed(ctx) {
  for (const svc of SERVICES) {
    for (const task of ['migrate', 'seed']) {
      const r = spawnSync(process.execPath, [dist(svc.name, 'cli.js'), task], { cwd: root, env: { ...process.env, ...serviceEnv(svc, ctx) }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${svc.name} ${task} failed:\n${r.stderr}`);
    }
  }
}

/**
 * Starts every service, worker and the gateway. `onExit(label, code)` hears about a process that
 * ends on its own. Returns the processes, their ready probes and a stop() that ends them all.
 */
export function launchPlatform(ctx, { logDir, onExit = () => undefined }) {
  mkdirSync(logDir, { recursive: true });
  const offset = ctx.offset ?? 0;
  const children = [];
  let stopping = false;
  const launch = (label, file, env) => {
    const log = createWriteStream(path.join(logDir, `${label}.log`), { flags: 'a' });
    const child = spawn(process.execPath, [file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    child.on('exit', (code, signal) => {
      if (!stopping) onExit(label, code ?? signal);
    });
    const entry = children.find((c) => c.label === label);
    if (entry) Object.assign(entry, { child });
    else children.push({ label, child, file, env });
  };
  const entryOf = (label) => {
    const entry = children.find((c) => c.label === label);
    if (!entry) throw new Error(`no process ${label}`);
    return entry;
  };
  for (const svc of SERVICES) {
    launch(svc.name, dist(svc.name, 'main.js'), serviceEnv(svc, ctx));
    if (svc.worker) launch(`${svc.name}-worker`, dist(svc.name, 'worker.js'), serviceEnv(svc, ctx));
  }
  const gatewayPort = GATEWAY.port + offset;
  launch('gateway', dist('gateway', 'main.js'), gatewayEnv({ port: gatewayPort, offset }));
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const probes = [
    ...SERVICES.map((s) => ({ label: s.name, url: `${gatewayUrl}/health/${s.route}/ready` })),
    ...SERVICES.filter((s) => s.worker).map((s) => ({ label: `${s.name}-worker`, url: `http://127.0.0.1:${s.worker.healthPort + offset}/health/ready` })),
    { label: 'gateway', url: `${gatewayUrl}/health/ready` },
  ];
  return {
    gatewayUrl,
    children,
    probes,
    /** Ends one process with `signal` (SIGKILL: a crash) and resolves when it is gone. */
    kill(label, signal = 'SIGTERM') {
      const { child } = entryOf(label);
      return new Promise((resolve) => {
        if (hasExited(child)) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
    /** Starts a process again with the same program and environment (after kill()). */
    relaunch(label) {
      const { file, env } = entryOf(label);
      launch(label, file, env);
    },
    async stop() {
      stopping = true;
      await Promise.all(
        children.map(
          ({ child }) =>
            new Promise((resolve) => {
              if (hasExited(child)) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
              child.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

async function answers200(url) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return r.status === 200;
  } catch {
    return false;
  }
}

/** Waits until every probe answers 200; returns the labels still not ready at the deadline. */
export async function waitReady(probes, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(probes.map((p) => p.label));
  while (pending.size && Date.now() < deadline) {
    for (const p of probes) if (pending.has(p.label) && (await answers200(p.url))) pending.delete(p.label);
    if (pending.size) await new Promise((r) => setTimeout(r, 300));
  }
  return [...pending];
}
