// Parameter search for the lexical ranking on SciFact's DEV claims only (the held-out claims are
// never read here): indexes the abstracts once into a throwaway database with the worker's own
// IndexerService, then ranks every dev claim under each setting given and prints nDCG@10,
// Recall@100, MRR@10 and the chat's early-refusal rate per setting. The chosen setting becomes
// RANKING in apps/kb-api/src/app/retrieval/retrieval.service.ts; the end-to-end figures come from
// kb-scifact-eval.mjs.
//   node -r ./tools/swc-register.cjs tools/eval/kb-scifact-tune.mjs [--data <dir>] --grid '[{"k1":1.2,"b":0.75}, …]'
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({ options: { data: { type: 'string', default: join(root, '..', 'shared', 'eval', 'scifact') }, grid: { type: 'string', default: '[{}]' } } });
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const { scifactSplit, ndcgAt, recallAt, reciprocalRankAt } = require('./scifact-metrics.cjs');
const { EvalKnowledgeBase } = require('../../apps/kb-api/eval/retrieval-eval.ts');
const { RetrievalService } = require('../../apps/kb-api/src/app/retrieval/retrieval.service.ts');
const { ChunkSearchRepository } = require('../../apps/kb-api/src/app/retrieval/chunk-search.repository.ts');
const { TermStatsRepository } = require('../../apps/kb-api/src/app/retrieval/term-stats.repository.ts');
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

const kb = await EvalKnowledgeBase.create();
try {
  await kb.ingest(corpus.map((d) => ({ key: `abstracts/${d._id}.md`, content: `# ${d.title.replace(/\s+/g, ' ').trim() || d._id}\n\n${d.text}\n` })));
  // The throwaway database holds one tenant, the one the abstracts went into.
  const [{ tenant }] = await kb.db.query('SELECT DISTINCT tenant_id AS tenant FROM kb_documents');
  for (const params of JSON.parse(values.grid)) {
    const db = kb.db;
    // The lexical path alone, as the evaluation measures it.
    const vectors = new VectorSearch(new ChunkEmbeddingsRepository(db), { provider: null, minSimilarity: 0.5 });
    const retrieval = new RetrievalService(new ChunkSearchRepository(db), new TermStatsRepository(db), new SynonymsRepository(db), vectors, new Clock(), params);
    let ndcg = 0, recall = 0, mrr = 0, refused = 0, ms = 0;
    for (const claim of dev) {
      const started = performance.now();
      const found = await retrieval.retrieve(tenant, claim.text, {}, { depth: 100 });
      ms += performance.now() - started;
      const ranked = [...new Set([...found.primary, ...found.runner_up].map((c) => /^abstracts\/(.+)\.md$/.exec(c.source_path)[1]))];
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
