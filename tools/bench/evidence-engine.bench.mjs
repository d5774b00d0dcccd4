// Evidence review engine, in process: a large review (1,000 claims × 5 sources each, default
// profile) timed over many runs, and small reviews back to back for throughput.
//   node -r ./tools/swc-register.cjs tools/bench/evidence-engine.bench.mjs [--runs 200]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { createReviewEngine } = require('@platform/evidence-engine');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(values.runs);

const texts = ['This always works for everyone.', 'Results vary with dose.', 'Not for children or the elderly.', 'A plain statement of fact.', 'Regardless of context, it holds.'];
const tiers = ['guideline', 'peer_reviewed', 'news', 'blog', null];
const sources = Array.from({ length: 200 }, (_, i) => ({
  id: `s${i}`,
  url: i % 3 === 0 ? `https://journal${i}.example/doi/10.1234/${i}` : `https://site${i}.example/page`,
  declared_tier: tiers[i % tiers.length],
}));
const large = {
  artifact: {
    artifact_id: 'bench-large',
    answer_text: 'A long answer.',
    claims: Array.from({ length: 1000 }, (_, i) => ({
      id: `c${i}`,
      text: texts[i % texts.length],
      assertiveness: ['definitive', 'likely', 'tentative'][i % 3],
      source_ids: Array.from({ length: 5 }, (_, j) => `s${(i * 7 + j * 13) % 200}`),
    })),
    sources,
  },
  options: { dry_run: true },
};
const small = {
  artifact: { artifact_id: 'bench-small', answer_text: 'Short.', claims: [{ id: 'c', text: 'It always works.', source_ids: ['s'] }], sources: [{ id: 's', declared_tier: 'news' }] },
  options: { dry_run: true },
};

const engine = createReviewEngine();
const pct = (sorted, q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;

for (let i = 0; i < 20; i++) await engine.review(large);
const times = [];
for (let i = 0; i < runs; i++) {
  const t = process.hrtime.bigint();
  await engine.review(large);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);

for (let i = 0; i < 2000; i++) await engine.review(small);
const n = 20000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < n; i++) await engine.review(small);
const smallPerSec = Math.round(n / (Number(process.hrtime.bigint() - t0) / 1e9));

process.stdout.write(
  JSON.stringify({ large_review: { claims: 1000, sources_per_claim: 5, runs, p50_ms: pct(times, 0.5), p95_ms: pct(times, 0.95), p99_ms: pct(times, 0.99) }, small_reviews_per_sec_one_core: smallPerSec }, null, 2) + '\n',
);
