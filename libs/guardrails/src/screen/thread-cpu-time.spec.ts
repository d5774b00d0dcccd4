import { mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformThreadCpuTime } from './thread-cpu-time';

/** A /proc look-alike holding one thread's `file` and the `thread-self` entry the probe looks for. */
function fakeProc(file: 'schedstat' | 'stat', tid: number, content: string): string {
  const root = mkdtempSync(join(tmpdir(), 'fake-proc-'));
  mkdirSync(join(root, 'self', 'task', String(tid)), { recursive: true });
  mkdirSync(join(root, 'thread-self'));
  writeFileSync(join(root, 'self', 'task', String(tid), file), content);
  writeFileSync(join(root, 'thread-self', file), content);
  return root;
}

describe('platformThreadCpuTime', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('reads nanoseconds on CPU from schedstat', () => {
    const root = fakeProc('schedstat', 42, '123456789 5000 7\n');
    roots.push(root);
    const reader = platformThreadCpuTime(root);
    expect(reader?.read(42)).toBeCloseTo(123.456789, 9);
    expect(reader?.read(43)).toBeNull();
    expect(reader?.read(0)).toBeNull();
  });

  it('reads utime + stime clock ticks from stat where there is no schedstat, whatever the command name holds', () => {
    // Fields 14 and 15 are 7 and 5 ticks: 120 ms. The name "a (b) c" has spaces and parentheses.
    const root = fakeProc('stat', 42, '42 (a (b) c) R 1 42 42 0 -1 4194304 10 0 0 0 7 5 0 0 20 0 1 0 100 0 0\n');
    roots.push(root);
    expect(platformThreadCpuTime(root)?.read(42)).toBe(120);
  });

  it('is null where there is no /proc', () => {
    const root = mkdtempSync(join(tmpdir(), 'no-proc-'));
    roots.push(root);
    expect(platformThreadCpuTime(root)).toBeNull();
  });

  // The screening services run on Linux, where this is the reader the matcher uses.
  it("reads a live thread's CPU time on this Linux host, and it grows while the thread works", () => {
    const reader = platformThreadCpuTime();
    expect(reader).not.toBeNull();
    const thisThread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const before = reader!.read(thisThread)!;
    expect(before).toBeGreaterThan(0);
    // Work on this thread until the process has used 20 ms more user CPU.
    const cpu0 = process.cpuUsage();
    while (process.cpuUsage(cpu0).user < 20_000);
    expect(reader!.read(thisThread)!).toBeGreaterThan(before);
  });
});
