import { ReadAheadBudget, ReadAheadWaitTimeoutError } from './read-ahead-budget';
import { SlotWaitAbortedError } from './upstream-slots';

describe('ReadAheadBudget', () => {
  it('grants shares while they fit, then queues in order, a large share not overtaken by smaller ones', async () => {
    const budget = new ReadAheadBudget(100, 10_000);
    const a = await budget.acquire(60);
    const granted: string[] = [];
    const b = budget.acquire(50).then((r) => (granted.push('b'), r));
    const c = budget.acquire(10).then((r) => (granted.push('c'), r));
    await Promise.resolve();
    // c would fit (60 + 10) but waits behind b.
    expect(granted).toEqual([]);
    expect(budget.stats).toEqual({ usedBytes: 60, waiting: 2 });
    a();
    a();
    await Promise.all([b, c]);
    expect(granted).toEqual(['b', 'c']);
    expect(budget.stats).toEqual({ usedBytes: 60, waiting: 0 });
  });

  it('clamps a share to the whole budget', async () => {
    const budget = new ReadAheadBudget(100, 10_000);
    const release = await budget.acquire(1_000);
    expect(budget.stats.usedBytes).toBe(100);
    release();
    expect(budget.stats.usedBytes).toBe(0);
  });

  it('fails a wait that runs out, or whose caller gives up, and lets those behind it through', async () => {
    jest.useFakeTimers();
    try {
      const budget = new ReadAheadBudget(100, 50);
      await budget.acquire(90);
      const timedOut = budget.acquire(50);
      jest.advanceTimersByTime(60);
      await expect(timedOut).rejects.toBeInstanceOf(ReadAheadWaitTimeoutError);

      const cancel = new AbortController();
      const aborted = budget.acquire(50, cancel.signal);
      const behind = budget.acquire(10);
      cancel.abort();
      await expect(aborted).rejects.toBeInstanceOf(SlotWaitAbortedError);
      await behind;
      expect(budget.stats).toEqual({ usedBytes: 100, waiting: 0 });
    } finally {
      jest.useRealTimers();
    }
  });
});
