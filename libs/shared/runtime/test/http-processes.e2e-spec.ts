import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const fixture = join(__dirname, 'fixtures/clustered-service.ts');

// Every process compiles the fixture's TypeScript on start.
jest.setTimeout(90_000);

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function startService(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', join(root, 'tools/swc-register.cjs'), fixture], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  return { child, url: `http://127.0.0.1:${port}`, output: () => text, exited };
}

/** One request on a connection of its own, so the port's connections spread over the processes. */
function call(url: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function servingPids(url: string, requests = 16): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add(JSON.parse((await call(`${url}/whoami`)).body).pid);
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('HTTP_PROCESSES: several processes of one service on one port', () => {
  let service: Started;
  let firstPids: Set<number>;

  beforeAll(async () => {
    service = await startService({ HTTP_PROCESSES: '2' });
    firstPids = await until('two serving processes', async () => {
      const pids = await servingPids(service.url);
      return pids.size === 2 ? pids : undefined;
    });
  });

  afterAll(async () => {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
  });

  it('spreads connections over two processes, neither of them the supervisor', () => {
    expect(firstPids.size).toBe(2);
    expect(firstPids.has(service.child.pid!)).toBe(false);
    expect(service.output()).toContain('serving with 2 processes');
    // Each process's log lines carry its pid.
    const lines = service.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { pid?: number; service?: string });
    for (const pid of firstPids) expect(lines.some((l) => l.pid === pid && l.service === 'clustered-fixture')).toBe(true);
  });

  it('answers /metrics for every process, whichever one is asked', async () => {
    const before = await servingPids(service.url, 10);
    expect(before.size).toBe(2);
    const counted = async () => {
      const text = (await call(`${service.url}/metrics`)).body;
      const line = text.split('\n').find((l) => l.startsWith('http_server_request_duration_seconds_count{') && l.includes('route="/whoami"'));
      return Number(line?.split(' ').pop());
    };
    // Each scrape reaches one process at random; every answer carries both processes' requests.
    const totals = [await counted(), await counted(), await counted(), await counted()];
    expect(new Set(totals).size).toBe(1);
    // At least the 16 requests that found both processes and the 10 above.
    expect(totals[0]).toBeGreaterThanOrEqual(26);
    await servingPids(service.url, 5);
    expect(await counted()).toBe(totals[0]! + 5);
  });

  it('replaces a process that dies while serving', async () => {
    const crashed = JSON.parse((await call(`${service.url}/crash`, 'POST')).body).pid as number;
    await until('the crashed process to go', async () => (alive(crashed) ? undefined : true));
    const pids = await until('a replacement process', async () => {
      const now = await servingPids(service.url);
      return now.size === 2 && !now.has(crashed) ? now : undefined;
    });
    expect(pids.size).toBe(2);
    expect(service.output()).toContain('a process exited; starting another');
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const pids = await servingPids(service.url);
    service.child.kill('SIGTERM');
    const { code } = await service.exited;
    expect(code).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});

describe('HTTP_PROCESSES: interrupts', () => {
  it('stops every process when only the supervisor gets SIGINT, after a drain\'s time', async () => {
    const service = await startService({ HTTP_PROCESSES: '2' });
    const pids = await until('two serving processes', async () => {
      const now = await servingPids(service.url);
      return now.size === 2 ? now : undefined;
    });
    service.child.kill('SIGINT');
    expect((await service.exited).code).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });

  it('lets each process drain on a Ctrl-C that reaches them all, without a second signal', async () => {
    const service = await startService({ HTTP_PROCESSES: '2' });
    const pids = await until('two serving processes', async () => {
      const now = await servingPids(service.url);
      return now.size === 2 ? now : undefined;
    });
    // What a terminal does: the signal goes to every process of the group.
    for (const pid of [service.child.pid!, ...pids]) process.kill(pid, 'SIGINT');
    const started = Date.now();
    expect((await service.exited).code).toBe(0);
    // Well inside the supervisor's own SIGINT delay (SHUTDOWN_GRACE_MS 0 + 5 s): the processes ended themselves.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(service.output()).not.toContain('starting another');
  });
});

describe('HTTP_PROCESSES: refusals at start', () => {
  it('names a bad HTTP_PROCESSES and exits 1', async () => {
    const service = await startService({ HTTP_PROCESSES: '0' });
    expect((await service.exited).code).toBe(1);
    expect(service.output()).toMatch(/cannot start: .*HTTP_PROCESSES/s);
  });

  it('exits 1 with the reason when the processes cannot start', async () => {
    const service = await startService({ HTTP_PROCESSES: '2', FIXTURE_REFUSE_BOOT: '1' });
    expect((await service.exited).code).toBe(1);
    expect(service.output()).toContain('clustered-fixture cannot start: boot refused by the fixture');
    expect(service.output()).toContain('a process exited before it served; stopping');
  });
});
