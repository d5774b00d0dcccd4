/** No pooled connection to the upstream became free within the wait allowed. */
export class SlotWaitTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super(`no connection to the upstream became free within ${waitedMs} ms`);
  }
}

/** The caller gave up (client went away) while waiting. */
export class SlotWaitAbortedError extends Error {
  constructor() {
    super('gave up waiting for a connection to the upstream');
  }
}

interface Waiter {
  grant: (release: () => void) => void;
  fail: (e: Error) => void;
}

/**
 * Admission to one upstream: at most `capacity` requests in flight (the pool's connection count),
 * the rest wait first come first served for at most `maxWaitMs`. The pool would queue them too,
 * but without a bound; here a wait that runs out becomes a 503 the client can retry, and every
 * slot goes back through the one release function whatever way the request ends.
 */
export class UpstreamSlots {
  private inFlight = 0;
  private readonly waiting = new Set<Waiter>();

  constructor(
    readonly capacity: number,
    private readonly maxWaitMs: number,
  ) {}

  get stats(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.size };
  }

  /** Resolves with a release function (safe to call more than once) once a slot is held. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new SlotWaitAbortedError());
    if (this.inFlight < this.capacity) {
      this.inFlight++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(waiter);
      };
      const waiter: Waiter = {
        grant: (release) => {
          done();
          resolve(release);
        },
        fail: (e) => {
          done();
          reject(e);
        },
      };
      const onAbort = () => waiter.fail(new SlotWaitAbortedError());
      const timer = setTimeout(() => waiter.fail(new SlotWaitTimeoutError(this.maxWaitMs)), this.maxWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.values().next();
      // The slot passes straight to the longest waiter, so a burst cannot overtake the queue.
      if (next.done) this.inFlight--;
      else next.value.grant(this.releaser());
    };
  }
}
