// Parameter search on SciFact's DEV claims only (the held-out claims are never read here). Two modes:
//  --grid: the lexical ranking. Indexes the abstracts once into a throwaway database with the
//    worker's own IndexerService, then ranks every dev claim under each setting given and prints
//    nDCG@10, Recall@100, MRR@10 and the chat's early-refusal rate per setting. The chosen setting
//    becomes RANKING in apps/kb-api/src/app/retrieval/retrieval.service.ts.
//  --grounding-grid: the chat's refusal rule. Ranks every dev claim once, and every question of the
//    platform's own evaluation with an odd id (apps/kb-api/eval/retrieval-questions.json over its
//    corpus; the even ids are held out too), recording what groundingOf was given for each; then
//    replays groundingOf under each setting (overrides of GROUNDING in
//    apps/kb-api/src/app/retrieval/grounding.ts) without ranking again, and prints per setting the
//    dev claims refused and answered citing a relevant abstract, and the odd questions: answerable
//    ones refused, unanswerable ones answered (which must stay 0).
// The end-to-end figures come from kb-scifact-eval.mjs and kb-retrieval-eval.mjs.
//   node -r ./tools/swc-register.cjs tools/eval/kb-scifact-tune.mjs [--data <dir>] --grid '[{"k1":1.2,"b":0.75}, …]'
//   node -r ./tools/swc-register.cjs tools/eval/kb-scifact-tune.mjs [--data <dir>] --grounding-grid '[{}, {"minScore":0.15}, …]'
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(root, '..', 'shared', 'eval', 'scifact') },
    grid: { type: 'string' },
    'grounding-grid': { type: 'string' },
  },
});
if (!values.grid === !values['grounding-grid']) throw new Error('pass one of --grid or --grounding-grid');
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const { scifactSplit, ndcgAt, recallAt, reciprocalRankAt } = require('./scifact-metrics.cjs');
const { EvalKnowledgeBase, loadCorpus, loadQuestions, splitOf } = require('../../apps/kb-api/eval/retrieval-eval.ts');
const { RetrievalService, groundingWeights } = require('../../apps/kb-api/src/app/retrieval/retrieval.service.ts');
const { ChunkSearchRepository } = require('../../apps/kb-api/src/app/retrieval/chunk-search.repository.ts');
const { TermStatsRepository } = require('../../apps/kb-api/src/app/retrieval/term-stats.repository.ts');
const { queryStatsOf } = require('../../apps/kb-api/src/app/retrieval/term-stats.ts');
const { adjacentTermPairs, groundingOf, GROUNDING } = require('../../apps/kb-api/src/app/retrieval/grounding.ts');
const { ChunkEmbeddingsRepository } = require('../../apps/kb-api/src/app/retrieval/chunk-embeddings.repository.ts');
const { VectorSearch } = require('../../apps/kb-api/src/app/retrieval/vector-search.ts');
const { SynonymsRepository } = require('../../apps/kb-api/src/app/admin-knowledge/curation/synonyms.repository.ts');
const { Clock } = require('@platform/runtime');

const dataDir = resolve(values.data);
const jsonl = (text) => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const corpus = jsonl(gunzipSync(readFileSync(join(dataDir, 'corpus.jsonl.gz'))).toString('utf8'));
const qrels = new Map();
for (const line of readFileSync(join(dataDir, 'qrels-train.tsv'), 'utf8').split('\n').slice(1)) {
  const [q, d, s] = line.trim().split('\t');
  if (!q || Number(s) <= 0) continue;
  if (!qrels.has(q)) qrels.set(q, new Set());
  qrels.get(q).add(d);
}
const dev = jsonl(readFileSync(join(dataDir, 'queries-train.jsonl'), 'utf8')).filter((c) => qrels.has(c._id) && scifactSplit(c._id) === 'dev');
const abstracts = corpus.map((d) => ({ key: `abstracts/${d._id}.md`, content: `# ${d.title.replace(/\s+/g, ' ').trim() || d._id}\n\n${d.text}\n` }));
const abstractId = (sourcePath) => /^abstracts\/(.+)\.md$/.exec(sourcePath)[1];
// The lexical path alone, ranked in SQL: the grid's `prefilter` and `maxFinders` shape that path, and the grounding grid
// replays what its ranking query answered (kb-api ranks from the in-memory index where a tenant fits, with the same
// BM25 over every candidate; kb-scifact-eval.mjs measures that).
const retrievalOver = (db, chunks = new ChunkSearchRepository(db), termStats = new TermStatsRepository(db), params = {}) =>
  new RetrievalService(chunks, termStats, new SynonymsRepository(db), new VectorSearch(new ChunkEmbeddingsRepository(db), { provider: null, minSimilarity: 0.5 }), new Clock(), params);
const tenantOf = async (kb) => (await kb.db.query('SELECT DISTINCT tenant_id AS tenant FROM kb_documents'))[0].tenant;

async function searchRanking(grid) {
  const kb = await EvalKnowledgeBase.create();
  try {
    await kb.ingest(abstracts);
    // The throwaway database holds one tenant, the one the abstracts went into.
    const tenant = await tenantOf(kb);
    for (const params of grid) {
      const retrieval = retrievalOver(kb.db, undefined, undefined, params);
      let ndcg = 0, recall = 0, mrr = 0, refused = 0, ms = 0;
      for (const claim of dev) {
        const started = performance.now();
        const found = await retrieval.retrieve(tenant, claim.text, {}, { depth: 100 });
        ms += performance.now() - started;
        const ranked = [...new Set([...found.primary, ...found.runner_up].map((c) => abstractId(c.source_path)))];
        const relevant = qrels.get(claim._id);
        ndcg += ndcgAt(10, ranked, relevant);
        recall += recallAt(100, ranked, relevant);
        mrr += reciprocalRankAt(10, ranked, relevant);
        if (!found.primary.some((c) => c.grounded)) refused++;
      }
      const n = dev.length;
      process.stdout.write(JSON.stringify({ params, claims: n, ndcg10: +(ndcg / n).toFixed(4), recall100: +(recall / n).toFixed(4), mrr10: +(mrr / n).toFixed(4), refusal: +(refused / n).toFixed(4), mean_ms: Math.round(ms / n) }) + '\n');
    }
  } finally {
    await kb.close();
  }
}

/** Repositories that keep what the last ranking read, so the grounding inputs can be rebuilt exactly. */
class RecordingChunkSearch extends ChunkSearchRepository {
  async rank(...args) {
    this.last = await super.rank(...args);
    return this.last;
  }
}
class RecordingTermStats extends TermStatsRepository {
  async lookup(...args) {
    this.last = await super.lookup(...args);
    return this.last;
  }
}

/**
 * Each query as the chat would judge it: groundingOf's inputs as RetrievalService builds them (the
 * grounding weights, the adjacent pairs, every shown chunk's terms and score) and, per chunk, its
 * document and whether it is a primary chunk (the chat cites only those).
 */
async function recordGroundingInputs(docs, queries) {
  const kb = await EvalKnowledgeBase.create();
  try {
    await kb.ingest(docs);
    const tenant = await tenantOf(kb);
    const chunks = new RecordingChunkSearch(kb.db);
    const termStats = new RecordingTermStats(kb.db);
    const retrieval = retrievalOver(kb.db, chunks, termStats);
    const recorded = [];
    for (const q of queries) {
      chunks.last = [];
      termStats.last = [];
      const found = await retrieval.retrieve(tenant, q.text);
      const stats = queryStatsOf(termStats.last, found.terms);
      const foundOf = new Map(chunks.last.map((r) => [r.chunk_id, r.found.map((i) => i - 1)]));
      const shown = [...found.primary, ...found.runner_up];
      recorded.push({
        ...q,
        terms: groundingWeights(stats.terms, stats.chunks).map(({ idf, df }) => ({ idf, df })),
        pairs: adjacentTermPairs(q.text, found.terms),
        chunks: shown.map((c) => ({ found: foundOf.get(c.chunk_id) ?? [], score: c.score })),
        docs: shown.map((c) => c.source_path),
        primary: found.primary.length,
      });
    }
    return recorded;
  } finally {
    await kb.close();
  }
}

async function searchGrounding(grid) {
  const claims = await recordGroundingInputs(
    abstracts,
    dev.map((c) => ({ text: c.text, relevant: new Set([...qrels.get(c._id)].map((d) => `abstracts/${d}.md`)) })),
  );
  const questions = loadQuestions();
  const odd = await recordGroundingInputs(loadCorpus(), [
    ...questions.answerable.filter((q) => splitOf(q.id) === 'odd').map((q) => ({ id: q.id, text: q.question, relevant: new Set(q.expected) })),
    ...questions.unanswerable.filter((q) => splitOf(q.id) === 'odd').map((q) => ({ id: q.id, text: q.question, relevant: null })),
  ]);
  // The chat refuses when no primary chunk grounds; it cites the grounded primary chunks' documents.
  const judge = (q, params) => {
    const grounded = groundingOf(q.terms, q.pairs, q.chunks, q.primary, params).slice(0, q.primary);
    const cited = q.docs.slice(0, q.primary).filter((_, i) => grounded[i]);
    return { refused: cited.length === 0, citesRelevant: cited.some((d) => q.relevant?.has(d)) };
  };
  for (const overrides of grid) {
    const params = { ...GROUNDING, ...overrides };
    const c = claims.map((q) => judge(q, params));
    const answerable = odd.filter((q) => q.relevant).map((q) => ({ id: q.id, ...judge(q, params) }));
    const unanswerable = odd.filter((q) => !q.relevant).map((q) => ({ id: q.id, ...judge(q, params) }));
    process.stdout.write(
      JSON.stringify({
        params: overrides,
        dev_claims: c.length,
        dev_refused: +(c.filter((o) => o.refused).length / c.length).toFixed(4),
        dev_cites_relevant: +(c.filter((o) => o.citesRelevant).length / c.length).toFixed(4),
        odd_answerable_refused: `${answerable.filter((o) => o.refused).length}/${answerable.length}`,
        odd_unanswerable_answered: unanswerable.filter((o) => !o.refused).map((o) => o.id),
      }) + '\n',
    );
  }
}

if (values.grid) await searchRanking(JSON.parse(values.grid));
else await searchGrounding(JSON.parse(values['grounding-grid']));
