import { SlotWaitAbortedError } from './upstream-slots';

/** No room in the read-ahead budget freed up within the wait allowed. */
export class ReadAheadWaitTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super(`the gateway had no room to read the request body within ${waitedMs} ms`);
  }
}

interface Waiter {
  bytes: number;
  grant: (release: () => void) => void;
  fail: (e: Error) => void;
}

/**
 * The bytes of request bodies all requests together may hold read ahead in the gateway (bodies
 * read before they take an upstream connection). A request reserves its share before it reads
 * (its declared length, or the read-ahead size, whichever is smaller; never more than the whole
 * budget); when the budget is spent it waits unread, first come first served, for at most
 * `maxWaitMs`. Its body stays in the client's socket meanwhile, so what thousands of queued
 * requests cost is bounded by the budget rather than by their number.
 */
export class ReadAheadBudget {
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly capacity: number,
    private readonly maxWaitMs: number,
  ) {}

  get stats(): { usedBytes: number; waiting: number } {
    return { usedBytes: this.used, waiting: this.queue.length };
  }

  /** Resolves with a release function (safe to call more than once) once `bytes` are reserved. */
  acquire(bytes: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new SlotWaitAbortedError());
    const share = Math.max(0, Math.min(bytes, this.capacity));
    if (this.queue.length === 0 && this.used + share <= this.capacity) {
      this.used += share;
      return Promise.resolve(this.releaser(share));
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
      };
      const waiter: Waiter = {
        bytes: share,
        grant: (release) => {
          done();
          resolve(release);
        },
        fail: (e) => {
          done();
          reject(e);
          // The one leaving may have been what held the others back.
          this.grantWaiting();
        },
      };
      const onAbort = () => waiter.fail(new SlotWaitAbortedError());
      const timer = setTimeout(() => waiter.fail(new ReadAheadWaitTimeoutError(this.maxWaitMs)), this.maxWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(bytes: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
      this.grantWaiting();
    };
  }

  /** In order: a large share at the head is not overtaken by smaller ones behind it. */
  private grantWaiting(): void {
    while (this.queue.length > 0 && this.used + this.queue[0].bytes <= this.capacity) {
      const next = this.queue[0];
      this.used += next.bytes;
      next.grant(this.releaser(next.bytes));
    }
  }
}
