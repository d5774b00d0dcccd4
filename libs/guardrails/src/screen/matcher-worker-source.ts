/**
 * The matcher thread, as plain JavaScript evaluated by `new Worker(…, { eval: true })` so it needs
 * no build step. It handles two kinds of message in order, answering each:
 * - `load`: compiles a ruleset and runs every rule on short samples (one-byte and two-byte text,
 *   twice) so V8 compiles and tiers up the regex code now, not inside a prompt's time budget (the
 *   load has its own, larger budget);
 * - a job: goes through the ruleset's rules from `from` in order, running the listed ones (the
 *   others cannot match the text) and reporting every rule that failed to compile, stopping at the
 *   first match (and at the first error when failing closed).
 * Before each rule it publishes (entry id, rule index) in shared memory, so the main thread can name
 * the rule that was running when it had to terminate the thread. On start it publishes its kernel
 * thread id there too: the main thread reads the thread's CPU time under /proc by it, while the
 * thread is too busy running a regex to say anything itself.
 */

/** Int32 slots of the memory the thread shares with the main thread. */
export const SLOT_ENTRY = 0;
export const SLOT_RULE = 1;
/** The thread's id under /proc/self/task, or 0 where there is none (no /proc: not Linux). */
export const SLOT_THREAD_ID = 2;
export const SHARED_SLOTS = 3;

export const MATCHER_WORKER_SOURCE = `
'use strict';
const { readlinkSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const shared = new Int32Array(workerData.shared);
// /proc/thread-self links to "<pid>/task/<tid>" for the thread that reads it.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) Atomics.store(shared, ${SLOT_THREAD_ID}, tid);
} catch {
  // No /proc: the slot stays 0 and the main thread budgets wall-clock time.
}
const rulesets = new Map();
// Short samples: long enough to make V8 compile, too short for most runaway patterns to blow up.
const SAMPLES = ['warm up 0.', 'warm up \\u0101.'];

const messageOf = (e) => String((e && e.message) || e);

function compile(rule) {
  if (rule.error) return rule.error;
  try {
    const re = new RegExp(rule.source, rule.flags);
    for (const sample of SAMPLES) for (let k = 0; k < 2; k++) re.exec(sample);
    return re;
  } catch (e) {
    return messageOf(e);
  }
}

function load(entry) {
  const compiled = [];
  for (let i = 0; i < entry.rules.length; i++) {
    Atomics.store(shared, ${SLOT_ENTRY}, entry.id);
    Atomics.store(shared, ${SLOT_RULE}, i);
    compiled.push(compile(entry.rules[i]));
  }
  rulesets.set(entry.version, compiled);
  return { id: entry.id, match: null, errors: [] };
}

function run(entry) {
  const regexes = rulesets.get(entry.version);
  const errors = [];
  if (!regexes) return { id: entry.id, match: null, errors: [{ rule: entry.from, message: 'ruleset not loaded' }] };
  let next = 0;
  for (let i = entry.from; i < regexes.length; i++) {
    while (next < entry.rules.length && entry.rules[next] < i) next++;
    const listed = entry.rules[next] === i;
    Atomics.store(shared, ${SLOT_ENTRY}, entry.id);
    Atomics.store(shared, ${SLOT_RULE}, i);
    const re = regexes[i];
    let message = null;
    if (typeof re === 'string') {
      message = re;
    } else if (listed) {
      try {
        const m = re.exec(entry.text);
        if (m) return { id: entry.id, match: { rule: i, start: m.index, end: m.index + m[0].length }, errors };
      } catch (e) {
        message = messageOf(e);
      }
    }
    if (message !== null) {
      errors.push({ rule: i, message });
      if (entry.stopOnError) break;
    }
  }
  return { id: entry.id, match: null, errors };
}

parentPort.on('message', (msg) => {
  if (msg.kind === 'unload') rulesets.delete(msg.version);
  else parentPort.postMessage(msg.kind === 'load' ? load(msg) : run(msg));
});
`;
