// Evidence review engine, in process. A large review (1,000 claims, each citing 5 of its own
// sources: 5,000 sources) timed over many runs after a warm-up, then small reviews back to back
// for single-core throughput. Prints one JSON summary.
//   node -r ./tools/bench/swc-register.cjs tools/bench/evidence-engine.bench.mjs [--runs 200] [--small 20000]
import { createRequire } from 'node:module';
import os from 'node:os';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { createReviewEngine } = require('@platform/evidence-engine');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '30' },
    small: { type: 'string', default: '20000' },
  },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const smallCount = Number(values.small);

const CLAIMS = 1000;
const SOURCES_PER_CLAIM = 5;
// A mix that makes every check fire on some claims and leaves others clean.
const texts = [
  'This treatment always works for everyone.',
  'Results vary with dose and study design.',
  'Not recommended for children or the elderly.',
  'A plain statement of measured fact.',
  'Regardless of context, the effect holds in all cases.',
  'Do not use with anticoagulants; interaction reported.',
  'Presented as an emergency fix with no evidence.',
];
const assertiveness = ['definitive', 'likely', 'tentative'];
const sourceKinds = [
  (i) => ({ declared_tier: ['guideline', 'peer_reviewed', 'news', 'blog'][i % 4] }),
  (i) => ({ url: `https://doi.org/10.${1000 + (i % 9000)}/bench.${i}` }),
  (i) => ({ url: `https://www.ncbi.nih.gov/articles/${i}` }),
  (i) => ({ url: `https://arxiv.org/abs/2401.${String(i).padStart(5, '0')}` }),
  (i) => ({
    url: `https://site${i}.example/page`,
    title: `Page ${i}`,
    snippet: 'No identifiers here.',
  }),
];

function largeRequest() {
  const claims = [];
  const sources = [];
  for (let c = 0; c < CLAIMS; c++) {
    const ids = [];
    for (let k = 0; k < SOURCES_PER_CLAIM; k++) {
      const i = c * SOURCES_PER_CLAIM + k;
      sources.push({ id: `s${i}`, ...sourceKinds[(c + k) % sourceKinds.length](i) });
      ids.push(`s${i}`);
    }
    claims.push({
      id: `c${c}`,
      text: texts[c % texts.length],
      assertiveness: assertiveness[c % 3],
      source_ids: ids,
    });
  }
  return {
    artifact: { artifact_id: 'bench-large', answer_text: 'A long answer.', claims, sources },
    options: { dry_run: true },
  };
}

const small = {
  artifact: {
    artifact_id: 'bench-small',
    answer_text: 'Short.',
    claims: [
      { id: 'c1', text: 'It always works.', source_ids: ['s1'] },
      { id: 'c2', text: 'Dose depends on weight.', assertiveness: 'tentative', source_ids: ['s2'] },
    ],
    sources: [
      { id: 's1', declared_tier: 'news' },
      { id: 's2', url: 'https://doi.org/10.1000/xyz' },
    ],
  },
  options: { dry_run: true },
};

const engine = createReviewEngine({ tier_hints: { 'nih.gov': 'official' } });
const large = largeRequest();
const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

const sample = await engine.review(large);
for (let i = 0; i < warmup; i++) await engine.review(large);
const times = [];
for (let i = 0; i < runs; i++) {
  const started = process.hrtime.bigint();
  await engine.review(large);
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
}
times.sort((a, b) => a - b);

for (let i = 0; i < Math.min(2000, smallCount); i++) await engine.review(small);
const smallStarted = process.hrtime.bigint();
for (let i = 0; i < smallCount; i++) await engine.review(small);
const smallSeconds = Number(process.hrtime.bigint() - smallStarted) / 1e9;

const summary = {
  command: 'node -r ./tools/bench/swc-register.cjs tools/bench/evidence-engine.bench.mjs',
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
  },
  large_review: {
    claims: CLAIMS,
    sources: large.artifact.sources.length,
    sources_per_claim: SOURCES_PER_CLAIM,
    request_bytes: Buffer.byteLength(JSON.stringify(large)),
    findings: sample.findings.length,
    warmup_runs: warmup,
    runs,
    p50_ms: round(quantile(times, 0.5)),
    p95_ms: round(quantile(times, 0.95)),
    p99_ms: round(quantile(times, 0.99)),
    max_ms: round(times.at(-1)),
    target_p95_ms: 50,
    p95_within_target: quantile(times, 0.95) < 50,
  },
  small_review: {
    claims: small.artifact.claims.length,
    reviews: smallCount,
    reviews_per_sec_one_core: Math.round(smallCount / smallSeconds),
    mean_us: round((smallSeconds / smallCount) * 1e6, 1),
  },
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
