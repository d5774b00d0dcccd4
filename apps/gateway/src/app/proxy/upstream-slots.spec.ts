import { SlotWaitAbortedError, SlotWaitTimeoutError, UpstreamSlots } from './upstream-slots';

describe('UpstreamSlots', () => {
  it('admits up to its capacity at once and hands a released slot to the longest waiter', async () => {
    const slots = new UpstreamSlots(2, 10_000);
    const a = await slots.acquire();
    await slots.acquire();
    const order: string[] = [];
    const third = slots.acquire().then((r) => (order.push('third'), r));
    const fourth = slots.acquire().then((r) => (order.push('fourth'), r));
    expect(slots.stats).toEqual({ inFlight: 2, waiting: 2 });
    a();
    a(); // a second call changes nothing
    (await third)();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
    expect(slots.stats).toEqual({ inFlight: 1, waiting: 0 });
  });

  it('gives up waiting after the limit, without taking a slot', async () => {
    const slots = new UpstreamSlots(1, 20);
    const held = await slots.acquire();
    await expect(slots.acquire()).rejects.toBeInstanceOf(SlotWaitTimeoutError);
    expect(slots.stats).toEqual({ inFlight: 1, waiting: 0 });
    held();
    expect(slots.stats).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('leaves the queue when its caller aborts', async () => {
    const slots = new UpstreamSlots(1, 10_000);
    const held = await slots.acquire();
    const cancel = new AbortController();
    const waiting = slots.acquire(cancel.signal);
    cancel.abort();
    await expect(waiting).rejects.toBeInstanceOf(SlotWaitAbortedError);
    await expect(slots.acquire(cancel.signal)).rejects.toBeInstanceOf(SlotWaitAbortedError);
    held();
    expect(slots.stats).toEqual({ inFlight: 0, waiting: 0 });
  });
});
