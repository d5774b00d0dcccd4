// Gateway overhead: the same endpoint of a real service (evidence-review's /health/live, a Nest
// route with no I/O) hit directly and through the gateway, one after the other.
// Run: npm run build && node tools/bench/gateway.bench.mjs [--duration 10] [--connections 50]
import { parseArgs } from 'node:util';
import { load, sequentialLatency, startDist, stop, waitReady } from './lib.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const upstream = startDist('evidence-review', 'main.js', { PORT: '3904', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
const gateway = startDist('gateway', 'main.js', { PORT: '3980', UPSTREAM_EVIDENCE_URL: 'http://127.0.0.1:3904' });
try {
  await waitReady('http://127.0.0.1:3904/health/live');
  await waitReady('http://127.0.0.1:3980/health/live');
  // Warm up both paths (JIT, keep-alive pools).
  await load({ url: 'http://127.0.0.1:3904/health/live', duration: 3, connections });
  await load({ url: 'http://127.0.0.1:3980/health/evidence/live', duration: 3, connections });

  const direct = await load({ url: 'http://127.0.0.1:3904/health/live', duration, connections });
  // With the gateway's pid: its CPU time per request (cpu_us_per_request), which other work on the machine disturbs far less than throughput.
  const viaGateway = await load({ url: 'http://127.0.0.1:3980/health/evidence/live', duration, connections }, gateway.pid);
  const single = await sequentialLatency('http://127.0.0.1:3904/health/live');
  const singleVia = await sequentialLatency('http://127.0.0.1:3980/health/evidence/live');
  const summary = {
    connections,
    duration_s: duration,
    direct,
    via_gateway: viaGateway,
    throughput_ratio: Math.round((viaGateway.requests_per_sec / direct.requests_per_sec) * 1000) / 1000,
    unloaded_p50_added_ms: Math.round((singleVia.p50_ms - single.p50_ms) * 1000) / 1000,
    unloaded: { direct: single, via_gateway: singleVia },
  };
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
} finally {
  await stop(gateway);
  await stop(upstream);
}
