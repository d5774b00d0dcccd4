/**
 * Group commit: writes that arrive while a write is in flight go out together in the next one.
 * Nothing waits for a timer (an idle system writes each item at once); under load, one statement
 * carries many items. A caller's promise settles only when the statement holding its item has
 * committed, or fails with it, so nothing is acknowledged before it is stored.
 */
export class GroupCommit<T> {
  private queue: Array<{ item: T; resolve: () => void; reject: (e: unknown) => void }> = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch: number,
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
          for (const w of batch) w.reject(e);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
