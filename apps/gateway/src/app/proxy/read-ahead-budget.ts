/** No room left in the read-ahead budget for this request's body. */
export class ReadAheadBudgetSpentError extends Error {
  constructor() {
    super('the gateway is holding as many request bodies as it may: retry shortly');
  }
}

/**
 * The bytes of request bodies all requests together may hold read ahead in the gateway (bodies
 * read before they take an upstream connection). A request reserves its share before it reads
 * (its declared length, or the read-ahead size, whichever is smaller; never more than the whole
 * budget) and is refused when the budget cannot cover it.
 *
 * Refused at once rather than left waiting unread: Node reads a connection's first bytes (up to
 * 64 KiB, the headers and as much of the body as came with them) before the gateway sees the
 * request, so a request waiting unread would hold about as much as one read ahead, and thousands
 * waiting cost what the budget is meant to bound. Answered at once (503, its body read and
 * dropped), it holds nothing.
 */
export class ReadAheadBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** A release function (safe to call more than once) once `bytes` are reserved; throws ReadAheadBudgetSpentError when they do not fit. */
  reserve(bytes: number): () => void {
    // NaN would make `used` NaN and no later request would ever be refused: counted as the whole budget.
    const share = Number.isNaN(bytes) ? this.capacity : Math.max(0, Math.min(bytes, this.capacity));
    if (this.used + share > this.capacity) throw new ReadAheadBudgetSpentError();
    this.used += share;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= share;
    };
  }
}
