import { readlinkSync } from 'node:fs';
import { BoundedMatcher } from './bounded-matcher';
import { FIRST_LOOK_MS } from './entry-budget';
import { Ruleset } from './ruleset';
import { platformThreadCpuTime, ThreadCpuTimeReader } from './thread-cpu-time';

const ruleset = (version: string, ...rules: Array<[string, string, string?]>): Ruleset => ({
  version,
  rules: rules.map(([id, source, flags]) => ({ id, source, flags: flags ?? 'u' })),
});
const CATASTROPHIC = ruleset('catastrophic', ['first', 'zzz'], ['evil', '^(a+)+$'], ['after', 'b$']);
const EVIL_INPUT = `${'a'.repeat(40)}b`;

describe('BoundedMatcher', () => {
  const matcher = new BoundedMatcher({ timeoutMs: 200, compileTimeoutMs: 10_000 });
  afterAll(() => matcher.close());

  it('reports the first matching rule and its span', async () => {
    const report = await matcher.run(ruleset('v1', ['a', 'nope'], ['b', 'wor(ld)', 'u'], ['c', 'o']), 'hello world');
    expect(report).toEqual({ match: { rule: 1, start: 6, end: 11 }, errors: [], resumeAt: null });
  });

  it('supports lookaround and backreferences (full JS regex semantics)', async () => {
    const report = await matcher.run(ruleset('v2', ['look', '(?<=foo)bar(?!baz)'], ['back', '(\\w)\\1']), 'foobarx');
    expect(report.match).toEqual({ rule: 0, start: 3, end: 6 });
  });

  it('reports a rule that cannot compile as an error, stopping or continuing as asked', async () => {
    const broken: Ruleset = { version: 'v3', rules: [{ id: 'bad', source: '', flags: '', error: 'does not compile' }, { id: 'ok', source: 'x', flags: 'u' }] };
    expect(await matcher.run(broken, 'x', 0, true)).toEqual({ match: null, errors: [{ rule: 0, message: 'does not compile' }], resumeAt: null });
    expect(await matcher.run(broken, 'x', 0, false)).toEqual({ match: { rule: 1, start: 0, end: 1 }, errors: [{ rule: 0, message: 'does not compile' }], resumeAt: null });
  });

  it('cuts off catastrophic backtracking at the running rule and keeps serving afterwards', async () => {
    const report = await matcher.run(CATASTROPHIC, EVIL_INPUT);
    expect(report).toEqual({ match: null, errors: [{ rule: 1, message: 'timed out after 200 ms' }], resumeAt: 2 });
    expect(await matcher.run(CATASTROPHIC, EVIL_INPUT, 2)).toEqual({ match: { rule: 2, start: 40, end: 41 }, errors: [], resumeAt: null });
    expect((await matcher.run(ruleset('v1', ['a', 'nope'], ['b', 'wor(ld)']), 'world')).match).toEqual({ rule: 1, start: 0, end: 5 });
  });

  it('completes work queued behind a runaway prompt on a fresh thread', async () => {
    const runaway = matcher.run(CATASTROPHIC, EVIL_INPUT);
    const numbered = ruleset('v4', ['n', 'n\\d+$']);
    const queued = Array.from({ length: 20 }, (_, i) => matcher.run(numbered, `text n${i}`));
    expect((await runaway).errors).toEqual([{ rule: 1, message: expect.stringMatching(/timed out/) }]);
    const reports = await Promise.all(queued);
    expect(reports.map((r) => r.match)).toEqual(Array.from({ length: 20 }, (_, i) => ({ rule: 0, start: 5, end: `text n${i}`.length })));
  });

  it('gives a rule whose compilation keeps running out of time an error instead of retrying forever', async () => {
    const own = new BoundedMatcher({ timeoutMs: 200, compileTimeoutMs: 200 });
    // Runaway even on the short warm-up samples, so loading the ruleset cannot finish.
    const slow = ruleset('slow', ['runaway', '(.*.*.*.*.*.*.*.*.*.*.*.*)*x'], ['plain', 'up']);
    const report = await own.run(slow, 'warm up', 0, false);
    expect(report).toEqual({
      match: { rule: 1, start: 5, end: 7 },
      errors: [{ rule: 0, message: 'could not be compiled within 200 ms' }],
      resumeAt: null,
    });
    await own.close();
  });

  it('does not run a rule whose required words are absent: it cannot match, so it cannot run away either', async () => {
    const guarded = ruleset('guarded', ['evil', '^(?=(a+)+$)\\w*zzz'], ['after', 'b$']);
    expect(await matcher.run(guarded, EVIL_INPUT)).toEqual({ match: { rule: 1, start: 40, end: 41 }, errors: [], resumeAt: null });
    // With its word present the rule runs, in the thread, and is cut off as before.
    const report = await matcher.run(guarded, `${EVIL_INPUT}zzz`);
    expect(report).toEqual({ match: null, errors: [{ rule: 0, message: 'timed out after 200 ms' }], resumeAt: 1 });
  });

  it('still reports a rule that failed to compile when no rule can match the text', async () => {
    const broken: Ruleset = { version: 'v6', rules: [{ id: 'ok', source: 'needle', flags: 'u' }, { id: 'bad', source: '', flags: '', error: 'does not compile' }] };
    expect(await matcher.run(broken, 'hay', 0, false)).toEqual({ match: null, errors: [{ rule: 1, message: 'does not compile' }], resumeAt: null });
    expect(await matcher.run(broken, 'hay needle', 0, false)).toEqual({ match: { rule: 0, start: 4, end: 10 }, errors: [], resumeAt: null });
  });

  it('answers runs that were pending when it closed, and restarts on the next run', async () => {
    const own = new BoundedMatcher({ timeoutMs: 5000 });
    const pending = own.run(CATASTROPHIC, EVIL_INPUT);
    await own.close();
    expect(await pending).toEqual({ match: null, errors: [{ rule: 0, message: 'matcher closed' }], resumeAt: 1 });
    expect((await own.run(ruleset('v5', ['x', 'x']), 'x')).match).toEqual({ rule: 0, start: 0, end: 1 });
    await own.close();
  });
});

describe('BoundedMatcher time budget', () => {
  // 2^25 backtracking steps before the first rule gives up: far more than 5 ms of work on any
  // machine, yet it ends; then the second rule matches.
  const SLOW = ruleset('slow-then-match', ['slow', '^(a+)+$'], ['after', '!$']);
  const SLOW_INPUT = `${'a'.repeat(25)}!`;

  it("charges the matcher thread's CPU time, read from /proc: a rule burning past the budget is cut off at that rule", async () => {
    const proc = platformThreadCpuTime();
    expect(proc).not.toBeNull();
    const readings: Array<{ tid: number; ms: number | null }> = [];
    const watched: ThreadCpuTimeReader = {
      read: (tid) => {
        const ms = proc!.read(tid);
        readings.push({ tid, ms });
        return ms;
      },
    };
    const own = new BoundedMatcher({ timeoutMs: 200, compileTimeoutMs: 10_000, cpuTime: watched });
    expect(await own.run(CATASTROPHIC, EVIL_INPUT)).toEqual({ match: null, errors: [{ rule: 1, message: 'timed out after 200 ms' }], resumeAt: 2 });
    // Every reading was of the matcher thread (one thread, not this one), and they span the budget
    // but for the time before the first look, which is charged without a reading.
    expect(new Set(readings.map((r) => r.tid)).size).toBe(1);
    expect(readings[0].tid).not.toBe(Number(readlinkSync('/proc/thread-self').split('/').pop()));
    expect(readings.every((r) => r.ms !== null)).toBe(true);
    expect(readings.at(-1)!.ms! - readings[0].ms!).toBeGreaterThanOrEqual(200 - FIRST_LOOK_MS);
    await own.close();
  });

  it('does not cut off a rule whose thread got little CPU, however much wall-clock time passed', async () => {
    // A busy host: the thread is barely scheduled, so its CPU time hardly moves while wall-clock time passes (it gets a
    // ten-thousandth of a core). Its CPU time follows the wall clock, not the number of readings: on a slow machine the
    // watchdog looks more often during the slow rule, and a fixed step per reading would add up to a budget's worth.
    let reads = 0;
    const since = performance.now();
    const starved: ThreadCpuTimeReader = {
      read: () => {
        reads++;
        return 1000 + (performance.now() - since) * 1e-4;
      },
    };
    const own = new BoundedMatcher({ timeoutMs: 5, compileTimeoutMs: 10_000, cpuTime: starved });
    expect(await own.run(SLOW, SLOW_INPUT)).toEqual({ match: { rule: 1, start: 25, end: 26 }, errors: [], resumeAt: null });
    // The watchdog did look while the rule ran.
    expect(reads).toBeGreaterThan(0);
    await own.close();
  });

  it("falls back to a wall-clock budget where the thread's CPU time cannot be read", async () => {
    // No reader (a host without /proc), and a reader whose readings fail.
    for (const cpuTime of [null, { read: () => null }]) {
      const own = new BoundedMatcher({ timeoutMs: 5, compileTimeoutMs: 10_000, cpuTime });
      expect(await own.run(SLOW, SLOW_INPUT)).toEqual({ match: null, errors: [{ rule: 0, message: 'timed out after 5 ms' }], resumeAt: 1 });
      expect((await own.run(SLOW, SLOW_INPUT, 1)).match).toEqual({ rule: 1, start: 25, end: 26 });
      await own.close();
    }
  });
});
