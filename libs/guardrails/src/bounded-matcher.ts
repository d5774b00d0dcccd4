import { Worker } from 'node:worker_threads';

export interface MatchRule {
  id: string;
  source: string;
  flags: string;
}

export type RuleOutcome = { id: string; matched: false } | { id: string; matched: true; index: number; text: string } | { id: string; error: string };

/**
 * Runs in the worker: rules in order, each against the text; stops at the first match (the screen
 * reports only the first matching rule). Compiled patterns are cached by source and flags.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const compiled = new Map();
function regexFor(rule) {
  const key = rule.flags + '/' + rule.source;
  let re = compiled.get(key);
  if (!re) {
    if (compiled.size >= 512) compiled.clear();
    re = new RegExp(rule.source, rule.flags);
    compiled.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}
parentPort.on('message', ({ id, rules, text }) => {
  const results = [];
  for (const rule of rules) {
    parentPort.postMessage({ id, started: rule.id });
    try {
      const m = regexFor(rule).exec(text);
      if (m) { results.push({ id: rule.id, matched: true, index: m.index, text: m[0] }); break; }
      results.push({ id: rule.id, matched: false });
    } catch (e) {
      results.push({ id: rule.id, error: String(e && e.message || e) });
    }
  }
  parentPort.postMessage({ id, results });
});
`;

/**
 * Matching that can never hang the process: patterns run in a worker thread, and a call that
 * exceeds its time budget (catastrophic backtracking) terminates that worker; the rule that was
 * running is reported as an error (earlier rules keep their results, later ones did not run), so
 * the caller fails closed or open as configured.
 */
export class BoundedMatcher {
  private worker?: Worker;
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly timeoutMs = 50) {}

  private spawn(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.unref();
    return w;
  }

  /** Calls are serialised on one worker; a timed-out worker is replaced. */
  match(rules: MatchRule[], text: string): Promise<RuleOutcome[]> {
    const run = this.queue.then(() => this.runOnce(rules, text));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private runOnce(rules: MatchRule[], text: string): Promise<RuleOutcome[]> {
    if (rules.length === 0) return Promise.resolve([]);
    this.worker ??= this.spawn();
    const worker = this.worker;
    const id = ++this.seq;
    return new Promise((resolve) => {
      let running: string | undefined;
      const done = (results: RuleOutcome[]) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(results);
      };
      const onMessage = (msg: { id: number; started?: string; results?: RuleOutcome[] }) => {
        if (msg.id !== id) return;
        if (msg.started !== undefined) running = msg.started;
        else done(msg.results!);
      };
      const onError = (e: Error) => {
        this.worker = undefined;
        done(rules.map((r) => ({ id: r.id, error: `matcher failed: ${e.message}` })));
      };
      const timer = setTimeout(() => {
        this.worker = undefined;
        void worker.terminate();
        const at = rules.findIndex((r) => r.id === running);
        const decided: RuleOutcome[] = rules.slice(0, Math.max(0, at)).map((r) => ({ id: r.id, matched: false }));
        resolve([...decided, { id: running ?? rules[0].id, error: `timed out after ${this.timeoutMs} ms` }]);
        worker.off('message', onMessage);
        worker.off('error', onError);
      }, this.timeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.postMessage({ id, rules, text });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
