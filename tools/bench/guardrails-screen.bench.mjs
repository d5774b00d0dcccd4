// Input screening: a 2 KB benign prompt through normalization and the default rules, sequentially
// (latency) and with many screens in flight (throughput), plus the cost of a catastrophic pattern.
//   node -r ./tools/swc-register.cjs tools/bench/guardrails-screen.bench.mjs [--count 20000]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { BoundedMatcher, DEFAULT_SCREEN_RULES, screenPrompt } = require('@platform/guardrails');
const { values } = parseArgs({ options: { count: { type: 'string', default: '20000' } } });
const count = Number(values.count);

const sentence = 'Please summarise the quarterly results and list the main risks for the next period. ';
const prompt = sentence.repeat(Math.ceil(2048 / sentence.length)).slice(0, 2048);
const settings = {
  enabled: true,
  mode: 'enforce',
  patterns: DEFAULT_SCREEN_RULES,
  refusal_message: 'Refused.',
  max_prompt_length: 50000,
  on_match_error: 'closed',
  normalization: { enabled: true, nfkc: true, strip_zero_width: true, casefold: true, fold_confusables: true, decode_base64_blobs: true },
};
const matcher = new BoundedMatcher(100);
const pct = (s, q) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 1000) / 1000;

for (let i = 0; i < 2000; i++) await screenPrompt(prompt, settings, matcher);
const times = [];
for (let i = 0; i < count; i++) {
  const t = process.hrtime.bigint();
  await screenPrompt(prompt, settings, matcher);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);
const seqPerSec = Math.round(count / (times.reduce((a, b) => a + b, 0) / 1000));

const t0 = process.hrtime.bigint();
await Promise.all(Array.from({ length: count }, () => screenPrompt(prompt, settings, matcher)));
const concurrentPerSec = Math.round(count / (Number(process.hrtime.bigint() - t0) / 1e9));

const evil = { ...settings, patterns: { evil: '/^(a+)+$/' }, normalization: { ...settings.normalization, enabled: false } };
const t1 = process.hrtime.bigint();
const r = await screenPrompt(`${'a'.repeat(40)}!`, evil, matcher);
const catastrophicMs = Number(process.hrtime.bigint() - t1) / 1e6;
await matcher.close();
process.stdout.write(
  JSON.stringify({ prompt_bytes: prompt.length, p50_ms: pct(times, 0.5), p99_ms: pct(times, 0.99), sequential_per_sec: seqPerSec, in_flight_per_sec: concurrentPerSec, catastrophic: { ms: Math.round(catastrophicMs), rule_id: r.rule_id } }, null, 2) + '\n',
);
