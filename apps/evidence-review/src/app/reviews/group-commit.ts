/** A caller waiting for its item to be stored. */
interface Waiter<T> {
  item: T;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: writes that arrive while a write is in flight go out together in the next one.
 * Nothing waits for a timer (an idle system writes each item at once); under load, one statement
 * carries many items. A caller's promise settles only when the statement holding its item has
 * committed, or fails with it, so nothing is acknowledged before it is stored.
 *
 * A batch the store refuses because of an item's value (`itemRefused`) is written again one item
 * at a time, so each caller gets its own item's outcome: one statement is all-or-nothing, and one
 * item the store refuses would otherwise fail every other caller's write with an error about a
 * value they never sent. Any other failure (the store down or slow) fails the whole batch at once:
 * retrying each item of it in turn would only make every later caller wait behind the outage.
 */
export class GroupCommit<T> {
  private queue: Array<Waiter<T>> = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch: number,
    private readonly itemRefused: (e: unknown) => boolean = () => true,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.write(batch.map((w) => w.item));
          for (const w of batch) w.resolve();
        } catch (e) {
          if (batch.length > 1 && this.itemRefused(e)) await this.writeEach(batch);
          else for (const w of batch) w.reject(e);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** The items of a failed batch, each in a write of its own, settled by its own outcome. */
  private async writeEach(batch: Array<Waiter<T>>): Promise<void> {
    for (const w of batch) {
      try {
        await this.write([w.item]);
        w.resolve();
      } catch (e) {
        w.reject(e);
      }
    }
  }
}
