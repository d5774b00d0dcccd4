// Helpers shared by the benchmark scripts: start built services as child processes, wait for
// readiness, run autocannon, and summarise. Traffic only ever goes to 127.0.0.1.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts a built service. With BENCH_CPU_PROF_DIR set, the service writes a V8 CPU profile there
 * when it stops (open it in Chrome DevTools).
 */
export function startDist(app, entry, env) {
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, path.join(root, 'dist/apps', app, entry)], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

export async function waitReady(url, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** The process and every process below it (a service running several HTTP processes). */
function processTree(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    /* gone, or no /proc */
  }
  return [pid, ...children.flatMap(processTree)];
}

/**
 * CPU time (user + system, ms) a process and its children have used so far; null where /proc is
 * missing. Divided by the requests served it gives CPU per request, which other work on the
 * machine disturbs far less than throughput.
 */
export function processCpuMs(pid) {
  try {
    let total = 0;
    for (const p of processTree(pid)) {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    }
    return total;
  } catch {
    return null;
  }
}

/**
 * Runs autocannon and returns latency percentiles (ms), throughput and error counts; with
 * `servicePid`, also the service's CPU time per request (µs).
 */
export async function load(options, servicePid) {
  const cpuBefore = servicePid ? processCpuMs(servicePid) : null;
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  const cpuAfter = servicePid ? processCpuMs(servicePid) : null;
  return {
    requests_per_sec: Math.round(result.requests.average),
    ...(cpuBefore !== null && cpuAfter !== null ? { cpu_us_per_request: Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests.total) } : {}),
    p50_ms: result.latency.p50,
    p90_ms: result.latency.p90,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Sequential requests over one keep-alive connection, timed with hrtime: the unloaded latency
 * at microsecond resolution (autocannon reports whole milliseconds).
 */
export async function sequentialLatency(url, count = 3000) {
  const dispatcher = new Agent({ connections: 1 });
  const samples = [];
  try {
    for (let i = 0; i < count + 200; i++) {
      const started = process.hrtime.bigint();
      const r = await request(url, { dispatcher });
      await r.body.dump();
      if (i >= 200) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    await dispatcher.close();
  }
  samples.sort((a, b) => a - b);
  const at = (q) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 1000) / 1000;
  return { p50_ms: at(0.5), p90_ms: at(0.9), p99_ms: at(0.99) };
}
