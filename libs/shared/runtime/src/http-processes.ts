import cluster from 'node:cluster';
import { BaseEnv, loadEnv } from '@platform/config';
import { answerClusterMetrics } from '@platform/observability';
import pino, { Logger } from 'pino';
import { runOrExit } from './http-app';

/** Unexpected exits tolerated within the window before the supervisor gives up and lets the orchestrator restart the pod. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** Beyond SHUTDOWN_GRACE_MS, what a process gets to close on the SIGINT it received itself. */
const SIGINT_STRAGGLER_MS = 5_000;

/**
 * main.ts for an HTTP service. One process by default; with HTTP_PROCESSES=n above 1 this process
 * supervises n copies of the service that share its port (node:cluster), so one pod can use n
 * cores. Caches and in-process state are per process, exactly as they are per replica, which
 * every service already allows for; /metrics answers for all processes.
 */
export function runHttpService(service: string, start: () => Promise<unknown>): void {
  if (cluster.isWorker) return runOrExit(service, start);
  let env: BaseEnv;
  try {
    env = loadEnv(BaseEnv);
  } catch (e) {
    process.stderr.write(`${service} cannot start: ${(e as Error).message}\n`);
    process.exit(1);
  }
  if (env.HTTP_PROCESSES <= 1) return runOrExit(service, start);
  superviseHttpProcesses(service, env, pino({ name: service, level: env.LOG_LEVEL, base: { service } }));
}

function superviseHttpProcesses(service: string, env: BaseEnv, log: Logger): void {
  const count = env.HTTP_PROCESSES;
  const serving = new Set<number>();
  const recentExits: number[] = [];
  let stopping = false;
  let exitCode = 0;

  const running = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  const stop = (code: number, afterMs = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (running().length === 0) process.exit(code);
    // Each process drains as a single one would (readiness red, SHUTDOWN_GRACE_MS, close).
    const signalAll = () => running().forEach((worker) => worker.process.kill('SIGTERM'));
    if (afterMs > 0) setTimeout(signalAll, afterMs);
    else signalAll();
  };

  answerClusterMetrics();
  cluster.on('listening', (worker) => serving.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    const wasServing = serving.delete(worker.id);
    if (stopping) {
      if (running().length === 0) process.exit(exitCode);
      return;
    }
    if (!wasServing) {
      // It printed why (bad configuration, unreachable database); the others would fail alike.
      log.error({ pid: worker.process.pid, code, signal }, `${service}: a process exited before it served; stopping`);
      stop(1);
      return;
    }
    const now = Date.now();
    recentExits.push(now);
    while (recentExits.length > 0 && recentExits[0]! < now - RESTART_WINDOW_MS) recentExits.shift();
    if (recentExits.length > MAX_RESTARTS) {
      log.error({ pid: worker.process.pid, code, signal }, `${service}: more than ${MAX_RESTARTS} processes exited within a minute; stopping`);
      stop(1);
      return;
    }
    log.warn({ pid: worker.process.pid, code, signal }, `${service}: a process exited; starting another`);
    cluster.fork();
  });
  process.on('SIGTERM', () => stop(0));
  // Ctrl-C in a terminal reaches every process of the group and each already drains on it; a
  // second signal would cut that short. So SIGINT only stops processes still running after a drain.
  process.on('SIGINT', () => stop(0, env.SHUTDOWN_GRACE_MS + SIGINT_STRAGGLER_MS));

  for (let i = 0; i < count; i++) cluster.fork();
  log.info({ processes: count }, `${service}: serving with ${count} processes`);
}
