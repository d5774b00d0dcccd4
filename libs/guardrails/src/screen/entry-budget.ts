/** Milliseconds on a monotonic clock: only differences matter, and a wall-clock step cannot fake one. */
export interface ElapsedClock {
  nowMs(): number;
}

export const monotonicClock: ElapsedClock = { nowMs: () => performance.now() };

/**
 * When the thread's CPU time is first looked at (or at half a smaller budget). An entry that ends
 * sooner, nearly every prompt, is never looked at. Each entry leaves its timer armed in the event
 * loop until it is due, so this is also how often a busy matcher wakes the main thread: looking
 * after 2 ms cost about 8% more CPU per matcher run on a loaded host, after 10 ms a few percent at most.
 */
export const FIRST_LOOK_MS = 10;

/**
 * Shortest wait between two later looks: an entry that runs on (a slow or runaway rule) is looked
 * at a few times, never in a tight loop; its cut-off comes at most this long after the budget ran out.
 */
export const MIN_LOOK_INTERVAL_MS = 2;

/** The wall-clock backstop of a CPU budget: this many times the budget… */
export const BACKSTOP_FACTOR = 20;
/** …and never less than this. */
export const BACKSTOP_MIN_MS = 3000;

export type BudgetCheck = { cutOff: string } | { nextCheckInMs: number };

/**
 * The time budget of the entry at the head of the matcher's queue, and when to look at it again.
 *
 * With a CPU-time source, the budget counts the CPU the matcher thread used on the entry, so a host
 * busy with other work (which slows the thread down without the thread doing more) does not make a
 * harmless prompt run out of time. The time before the first look (`FIRST_LOOK_MS`) is charged as
 * CPU time in full. A wall-clock backstop, `BACKSTOP_FACTOR` times the budget and at least
 * `BACKSTOP_MIN_MS`, still ends an entry whose thread gets almost no CPU for that long.
 *
 * Without a CPU-time source (`cpuTime` null: no /proc on macOS or Windows), or as soon as a reading fails, the
 * budget is wall-clock time from the start of the entry, as before CPU time could be read.
 */
export class EntryBudget {
  private readonly startedAt: number;
  private readonly backstopMs: number;
  private readonly firstLookMs: number;
  /** The thread's CPU time at the first look, less what is charged for the time before it; null until then. */
  private cpuAtStart: number | null = null;
  private wallClock: boolean;

  /** `cpuTime`: the matcher thread's CPU time so far in ms (null when it cannot be read). */
  constructor(
    private readonly budgetMs: number,
    private readonly clock: ElapsedClock,
    private readonly cpuTime: (() => number | null) | null,
  ) {
    this.startedAt = clock.nowMs();
    this.backstopMs = Math.max(BACKSTOP_MIN_MS, BACKSTOP_FACTOR * budgetMs);
    this.firstLookMs = Math.min(FIRST_LOOK_MS, budgetMs / 2);
    this.wallClock = cpuTime === null;
  }

  /** How long to wait before the first `check()`. */
  firstCheckInMs(): number {
    return this.wallClock ? this.budgetMs : this.firstLookMs;
  }

  /** Whether the entry has run out of budget; if not, how long until it could have. */
  check(): BudgetCheck {
    const elapsed = this.clock.nowMs() - this.startedAt;
    const cpu = this.wallClock ? null : this.cpuTime!();
    if (cpu === null) {
      this.wallClock = true;
      if (elapsed >= this.budgetMs) return { cutOff: `timed out after ${this.budgetMs} ms` };
      return { nextCheckInMs: Math.max(1, this.budgetMs - elapsed) };
    }
    // What the thread used before the first look is not known (reading it as each entry starts
    // would cost a /proc read per prompt). It is charged as if the thread had run all along, up to
    // the first look's due time: exact on an idle host; on a busy one, a late look (this thread was
    // slow to get to it) adds nothing more.
    this.cpuAtStart ??= cpu - Math.min(elapsed, this.firstLookMs);
    const used = cpu - this.cpuAtStart;
    if (used >= this.budgetMs) return { cutOff: `timed out after ${this.budgetMs} ms` };
    if (elapsed >= this.backstopMs) return { cutOff: `timed out after ${this.backstopMs} ms of wall-clock time` };
    // One thread cannot use more CPU time than wall-clock time passes, so the budget cannot run out
    // before `budgetMs - used` from now: no need to look sooner.
    return { nextCheckInMs: Math.max(MIN_LOOK_INTERVAL_MS, Math.min(this.budgetMs - used, this.backstopMs - elapsed)) };
  }
}
