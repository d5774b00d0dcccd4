import { ElapsedClock, EntryBudget, FIRST_LOOK_MS, MIN_LOOK_INTERVAL_MS } from './entry-budget';

/** A clock and a CPU-time reading the test moves by hand. */
function fakeThread() {
  const thread = { wallMs: 0, cpuMs: 1000 as number | null };
  const clock: ElapsedClock = { nowMs: () => thread.wallMs };
  return { thread, clock, cpuTime: () => thread.cpuMs };
}

describe('EntryBudget', () => {
  it("charges the thread's CPU time, not the wall-clock time that passes while the host is busy", () => {
    const { thread, clock, cpuTime } = fakeThread();
    const budget = new EntryBudget(50, clock, cpuTime);
    expect(budget.firstCheckInMs()).toBe(FIRST_LOOK_MS);

    thread.wallMs = 10;
    thread.cpuMs = 1010;
    expect(budget.check()).toEqual({ nextCheckInMs: 40 });
    // Ten times the budget on the wall clock, 20 ms on the CPU: not cut off.
    thread.wallMs = 500;
    thread.cpuMs = 1020;
    expect(budget.check()).toEqual({ nextCheckInMs: 30 });
    thread.wallMs = 900;
    thread.cpuMs = 1049;
    expect(budget.check()).toEqual({ nextCheckInMs: MIN_LOOK_INTERVAL_MS });
    thread.wallMs = 1000;
    thread.cpuMs = 1050;
    expect(budget.check()).toEqual({ cutOff: 'timed out after 50 ms' });
  });

  it('cuts off an entry that burns its CPU budget as fast as the wall clock runs', () => {
    const { thread, clock, cpuTime } = fakeThread();
    const budget = new EntryBudget(50, clock, cpuTime);
    thread.wallMs = 10;
    thread.cpuMs = 1010;
    expect(budget.check()).toEqual({ nextCheckInMs: 40 });
    thread.wallMs = 50;
    thread.cpuMs = 1050;
    expect(budget.check()).toEqual({ cutOff: 'timed out after 50 ms' });
  });

  it('charges the time before the first look in full, but no more than the look was due after', () => {
    const { thread, clock, cpuTime } = fakeThread();
    const budget = new EntryBudget(50, clock, cpuTime);
    // The look comes late (this thread was busy too) and the matcher thread used 3 ms: 10 ms are charged.
    thread.wallMs = 300;
    thread.cpuMs = 1003;
    expect(budget.check()).toEqual({ nextCheckInMs: 40 });
    thread.wallMs = 600;
    thread.cpuMs = 1043;
    expect(budget.check()).toEqual({ cutOff: 'timed out after 50 ms' });
    // A budget smaller than two first looks is looked at after half of it.
    expect(new EntryBudget(5, clock, cpuTime).firstCheckInMs()).toBe(2.5);
  });

  it('ends an entry whose thread gets almost no CPU at the wall-clock backstop: 20 times the budget, at least 3 s', () => {
    for (const [budgetMs, backstopMs] of [
      [50, 3000],
      [1000, 20_000],
    ]) {
      const { thread, clock, cpuTime } = fakeThread();
      const budget = new EntryBudget(budgetMs, clock, cpuTime);
      thread.wallMs = backstopMs - 1;
      expect(budget.check()).toEqual({ nextCheckInMs: MIN_LOOK_INTERVAL_MS });
      thread.wallMs = backstopMs;
      expect(budget.check()).toEqual({ cutOff: `timed out after ${backstopMs} ms of wall-clock time` });
    }
  });

  it('budgets wall-clock time when the CPU time cannot be read at all', () => {
    const { thread, clock } = fakeThread();
    const budget = new EntryBudget(50, clock, null);
    expect(budget.firstCheckInMs()).toBe(50);
    thread.wallMs = 30;
    expect(budget.check()).toEqual({ nextCheckInMs: 20 });
    thread.wallMs = 50;
    expect(budget.check()).toEqual({ cutOff: 'timed out after 50 ms' });
  });

  it('falls back to wall-clock time since the start when a reading fails, and stays there', () => {
    const { thread, clock, cpuTime } = fakeThread();
    const budget = new EntryBudget(50, clock, cpuTime);
    thread.wallMs = 10;
    budget.check();
    thread.wallMs = 30;
    thread.cpuMs = null;
    expect(budget.check()).toEqual({ nextCheckInMs: 20 });
    // The reading comes back, but the entry is already on the wall clock.
    thread.wallMs = 50;
    thread.cpuMs = 1001;
    expect(budget.check()).toEqual({ cutOff: 'timed out after 50 ms' });
  });
});
