import { Worker } from 'node:worker_threads';
import { ElapsedClock, EntryBudget, monotonicClock } from './entry-budget';
import { MATCHER_WORKER_SOURCE, SHARED_SLOTS, SLOT_ENTRY, SLOT_RULE, SLOT_THREAD_ID } from './matcher-worker-source';
import { prefilterFor } from './rule-prefilter';
import { MatcherRule, Ruleset } from './ruleset';
import { platformThreadCpuTime, ThreadCpuTimeReader } from './thread-cpu-time';

/** What one run of a ruleset over a text found. Rule numbers index `ruleset.rules`. */
export interface MatchReport {
  match: { rule: number; start: number; end: number } | null;
  /** Rules that failed (threw, did not compile, or ran out of time), in order. */
  errors: Array<{ rule: number; message: string }>;
  /**
   * Set when the run was cut off: rules from this index on were not evaluated. The caller decides
   * whether to stop (fail closed) or run again from here (fail open).
   */
  resumeAt: number | null;
}

export interface BoundedMatcherOptions {
  /**
   * Time budget of one run (all rules over one prompt), in milliseconds of the matcher thread's CPU
   * time (wall-clock time where that cannot be read; see EntryBudget); past it the thread is terminated.
   */
  timeoutMs?: number;
  /** Budget for compiling and warming up a ruleset in the thread (done once per ruleset), counted the same way. */
  compileTimeoutMs?: number;
  /** Heap cap of the matcher thread: a regex that allocates without bound kills only the thread. */
  maxHeapMb?: number;
  /**
   * Where the thread's CPU time is read: by default /proc on Linux; null (or a host without /proc)
   * budgets wall-clock time instead.
   */
  cpuTime?: ThreadCpuTimeReader | null;
  /** Elapsed time: the wall-clock budget and backstop, and the back-off of rules too slow to compile. */
  clock?: ElapsedClock;
}

type Entry =
  | { kind: 'load'; id: number; version: string; rules: MatcherRule[] }
  | {
      kind: 'match';
      id: number;
      ruleset: Ruleset;
      text: string;
      /** Where the caller started; a run that never started (closed, cut off) reports this rule. */
      from: number;
      /**
       * Rule indices whose regex runs, ascending; the others were shown unable to match the text.
       * Rules that failed to compile are reported whether listed or not.
       */
      rules: number[];
      stopOnError: boolean;
      resolve: (report: MatchReport) => void;
    };

interface WorkerReply {
  id: number;
  match: MatchReport['match'];
  errors: MatchReport['errors'];
}

/** Rulesets kept compiled in the thread; older ones are unloaded. */
const LOADED_RULESETS = 8;

/**
 * Runs screening rules so that matching can never hang the process. Rules run in one worker thread
 * with full JS regex semantics (lookaround and backreferences included). Work is a queue processed
 * in order; the entry at the head has a time budget (`timeoutMs` for a prompt, `compileTimeoutMs`
 * for loading a ruleset) counted in CPU time of the thread, which this thread reads from /proc on a
 * timer while the entry runs (EntryBudget: wall-clock time where /proc is missing, and a wall-clock
 * backstop). When it runs out (catastrophic backtracking), the thread is terminated,
 * the rule that was running is reported as an error, and queued work is resent to a fresh thread. A
 * rule whose compilation runs out of time twice (not once: a busy machine can be slow) is reported as
 * an error from then on instead of being compiled again. Before any of that, a literal prefilter
 * (rule-prefilter.ts) leaves out rules that cannot match the text; a prompt no rule can match needs no thread work.
 */
interface SlowCompile {
  count: number;
  until: number;
}

const STRIKE_BACKOFF_MS = 30_000;
const STRIKE_BACKOFF_MAX_MS = 15 * 60_000;

export class BoundedMatcher {
  readonly timeoutMs: number;
  private readonly compileTimeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly cpuTime: ThreadCpuTimeReader | null;
  private readonly clock: ElapsedClock;
  private worker?: Worker;
  /** Shared with the thread: see SHARED_SLOTS in matcher-worker-source.ts. */
  private shared?: Int32Array;
  private online = false;
  private loaded: string[] = [];
  private queue: Entry[] = [];
  private timer?: NodeJS.Timeout;
  private seq = 0;
  /** version -> rule index -> compilations that ran out of time, and until when the rule is struck out. */
  private readonly slowCompiles = new Map<string, Map<number, SlowCompile>>();
  /** Versions the thread has compiled at least once, so their compile errors are known. */
  private readonly compiledVersions = new Set<string>();

  constructor(options: BoundedMatcherOptions | number = {}) {
    const o = typeof options === 'number' ? { timeoutMs: options } : options;
    this.timeoutMs = o.timeoutMs ?? 50;
    this.compileTimeoutMs = o.compileTimeoutMs ?? 2000;
    this.maxHeapMb = o.maxHeapMb ?? 256;
    this.cpuTime = o.cpuTime === undefined ? platformThreadCpuTime() : o.cpuTime;
    this.clock = o.clock ?? monotonicClock;
  }

  /**
   * Runs `ruleset.rules[from…]` over `text`; never rejects. Rules whose required literals are all
   * absent from `text` cannot match and are not run. When no rule is left and the ruleset is known
   * to compile in the thread, the thread is not asked at all; rules that may match always run in
   * the thread, under the time budget. So no user regex ever runs on this thread.
   */
  run(ruleset: Ruleset, text: string, from = 0, stopOnError = true): Promise<MatchReport> {
    if (from >= ruleset.rules.length) return Promise.resolve({ match: null, errors: [], resumeAt: null });
    const rules = prefilterFor(ruleset).candidates(text, from);
    if (rules.length === 0 && this.compilesCleanly(ruleset.version, from)) {
      return Promise.resolve({ match: null, errors: [], resumeAt: null });
    }
    return this.submit(ruleset, text, from, rules, stopOnError);
  }

  /** The thread compiled the ruleset and no rule from `from` on is struck out for compiling too slowly. */
  private compilesCleanly(version: string, from: number): boolean {
    if (!this.compiledVersions.has(version)) return false;
    const strikes = this.slowCompiles.get(version);
    if (!strikes) return true;
    for (const [rule, strike] of strikes) if (rule >= from && this.struckOut(strike)) return false;
    return true;
  }

  /**
   * Twice too slow to compile: reported as an error (the screen fails closed or open per policy)
   * until a back-off ends, then compiled again. A busy machine recovers by itself; a pattern that is
   * really too slow stays out, retried ever less often.
   */
  private struckOut(strike: SlowCompile): boolean {
    return strike.count >= 2 && this.clock.nowMs() < strike.until;
  }

  private submit(ruleset: Ruleset, text: string, from: number, rules: number[], stopOnError: boolean): Promise<MatchReport> {
    return new Promise((resolve) => {
      this.enqueue({ kind: 'match', id: ++this.seq, ruleset, text, from, rules, stopOnError, resolve });
    });
  }

  /** Starts the thread and compiles `ruleset` (and reads its literals) ahead of the first prompt. */
  async warmUp(ruleset?: Ruleset): Promise<void> {
    if (ruleset && ruleset.rules.length > 0) {
      prefilterFor(ruleset);
      const last = ruleset.rules.length - 1;
      await this.submit(ruleset, '', last, [last], true);
      return;
    }
    const worker = this.ensureWorker();
    if (!this.online) await new Promise<void>((resolve) => worker.once('online', () => resolve()));
  }

  /** Stops the thread; pending runs report an error. A later run starts a new thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.discardWorker();
    for (const entry of this.queue.splice(0)) {
      if (entry.kind === 'match') {
        entry.resolve({ match: null, errors: [{ rule: entry.from, message: 'matcher closed' }], resumeAt: entry.from + 1 });
      }
    }
    await worker?.terminate();
  }

  private enqueue(entry: Entry & { kind: 'match' }): void {
    const wasIdle = this.queue.length === 0;
    const worker = this.ensureWorker();
    const { version } = entry.ruleset;
    if (!this.loaded.includes(version)) {
      this.post(worker, { kind: 'load', id: ++this.seq, version, rules: this.loadableRules(entry.ruleset) });
      this.loaded.push(version);
      if (this.loaded.length > LOADED_RULESETS) worker.postMessage({ kind: 'unload', version: this.loaded.shift() });
    }
    this.post(worker, entry);
    if (wasIdle) this.armTimer();
  }

  private post(worker: Worker, entry: Entry): void {
    this.queue.push(entry);
    if (entry.kind === 'load') {
      worker.postMessage({ kind: 'load', id: entry.id, version: entry.version, rules: entry.rules });
    } else {
      const { id, text, from, rules, stopOnError } = entry;
      worker.postMessage({ kind: 'match', id, version: entry.ruleset.version, text, from, rules, stopOnError });
    }
  }

  private loadableRules(ruleset: Ruleset): MatcherRule[] {
    const strikes = this.slowCompiles.get(ruleset.version);
    if (!strikes) return ruleset.rules;
    return ruleset.rules.map((rule, i) => {
      const strike = strikes.get(i);
      return strike && this.struckOut(strike) ? { ...rule, error: `could not be compiled within ${this.compileTimeoutMs} ms` } : rule;
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const shared = new SharedArrayBuffer(SHARED_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const worker = new Worker(MATCHER_WORKER_SOURCE, {
      eval: true,
      workerData: { shared },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.onReply(worker, reply));
    worker.on('error', (e) => this.onFailure(worker, `matcher thread failed: ${e.message}`));
    worker.on('exit', () => this.onFailure(worker, 'matcher thread exited'));
    worker.once('online', () => {
      if (this.worker !== worker) return;
      this.online = true;
      // The clock starts once the thread can work: its start-up is not the head entry's fault.
      this.armTimer();
    });
    this.worker = worker;
    this.shared = new Int32Array(shared);
    this.online = false;
    this.loaded = [];
    return worker;
  }

  /**
   * Starts the head entry's budget. Checks run on a timer and read the thread's CPU time only when
   * one comes due, so an entry that ends before its first check (nearly every prompt) costs no read.
   */
  private armTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const head = this.queue[0];
    if (!head || !this.online) return;
    const budget = new EntryBudget(head.kind === 'load' ? this.compileTimeoutMs : this.timeoutMs, this.clock, this.threadCpuTime());
    const check = (): void => {
      const verdict = budget.check();
      if ('cutOff' in verdict) this.cutOff(verdict.cutOff);
      else this.timer = setTimeout(check, verdict.nextCheckInMs);
    };
    this.timer = setTimeout(check, budget.firstCheckInMs());
  }

  /**
   * The current thread's CPU time, once it has published its thread id (0 until then, and where it
   * cannot tell: then the reading is null and the entry falls back to wall-clock time).
   */
  private threadCpuTime(): (() => number | null) | null {
    const reader = this.cpuTime;
    const shared = this.shared;
    if (!reader || !shared) return null;
    return () => {
      const tid = Atomics.load(shared, SLOT_THREAD_ID);
      return tid > 0 ? reader.read(tid) : null;
    };
  }

  private onReply(worker: Worker, reply: WorkerReply): void {
    if (worker !== this.worker || this.queue[0]?.id !== reply.id) return;
    const head = this.queue.shift()!;
    if (head.kind === 'match') head.resolve({ match: reply.match, errors: reply.errors, resumeAt: null });
    else this.rememberCompiled(head.version);
    this.armTimer();
  }

  private rememberCompiled(version: string): void {
    if (this.compiledVersions.size >= 64) this.compiledVersions.clear();
    this.compiledVersions.add(version);
  }

  private onFailure(worker: Worker, message: string): void {
    if (worker === this.worker) this.cutOff(message);
  }

  /** Ends the head entry at the rule that was running, replaces the thread, resends the rest. */
  private cutOff(message: string): void {
    const head = this.queue.shift();
    const shared = this.shared!;
    const started = head !== undefined && Atomics.load(shared, SLOT_ENTRY) === head.id;
    this.discardWorker();
    if (head?.kind === 'load') {
      const rule = started ? Atomics.load(shared, SLOT_RULE) : 0;
      const strikes = this.slowCompiles.get(head.version) ?? new Map<number, SlowCompile>();
      const count = (strikes.get(rule)?.count ?? 0) + 1;
      const backoffMs = count < 2 ? 0 : Math.min(STRIKE_BACKOFF_MAX_MS, STRIKE_BACKOFF_MS * 2 ** (count - 2));
      strikes.set(rule, { count, until: this.clock.nowMs() + backoffMs });
      if (this.slowCompiles.size >= 32) this.slowCompiles.clear();
      this.slowCompiles.set(head.version, strikes);
    } else if (head) {
      const rule = started ? Atomics.load(shared, SLOT_RULE) : head.from;
      head.resolve({ match: null, errors: [{ rule, message }], resumeAt: rule + 1 });
    }
    const pending = this.queue.splice(0).filter((e): e is Entry & { kind: 'match' } => e.kind === 'match');
    for (const entry of pending) this.enqueue(entry);
  }

  private discardWorker(): void {
    const worker = this.worker;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!worker) return;
    this.worker = undefined;
    this.online = false;
    worker.removeAllListeners();
    // A late error from a thread being torn down must not become an uncaught exception.
    worker.on('error', () => undefined);
    void worker.terminate();
  }
}
