// The in-memory lexical index's scoring alone, in this process: every chunk of a database that
// kb-retrieve.bench.mjs left in place (--keep) loaded into a LexicalIndex, the same queries that
// benchmark sends analysed as kb-api analyses them (Postgres's to_tsvector, the index's own
// statistics), then each query scored in turn, round after round, in three ways:
//   exhaustive-400  every chunk holding a query word scored, the best 400 kept (the read-back's widest)
//   pruned-32       the best 32 (what a top_k 10 retrieve sends first), chunks counted up to 101 (MaxScore)
//   pruned-400      the best 400, counted up to 401 (MaxScore)
// and checks that the pruned best 32 are the exhaustive best 32, query by query.
//   node -r ./tools/swc-register.cjs tools/bench/kb-retrieve.bench.mjs --scifact <folder> --keep
//   node -r ./tools/swc-register.cjs tools/bench/kb-score.bench.mjs --scifact <folder> [--man /usr/share/man] [--database kb_retrieve_bench] [--rounds 3]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CORPUS_OPTIONS, corpusAndQueries } from './kb-bench-corpus.mjs';

const require = createRequire(import.meta.url);
const { LexicalIndex } = require('../../apps/kb-api/src/app/retrieval/lexical-index.ts');
const { contentTerms } = require('../../apps/kb-api/src/app/retrieval/query-terms.ts');
const { analysedWords, queryStatsOf, termStatsRowsOf } = require('../../apps/kb-api/src/app/retrieval/term-stats.ts');
const { termQuery } = require('../../apps/kb-api/src/app/retrieval/synonyms.ts');
const { RANKING } = require('../../apps/kb-api/src/app/retrieval/retrieval.service.ts');
const { LexicalIndexRepository } = require('../../apps/kb-api/src/app/retrieval/lexical-index.repository.ts');
const { TermStatsRepository } = require('../../apps/kb-api/src/app/retrieval/term-stats.repository.ts');

const { values } = parseArgs({
  options: {
    ...CORPUS_OPTIONS,
    rounds: { type: 'string', default: '3' },
  },
});
// The retrieve benchmark's queries (checks --scifact before anything connects).
const kinds = corpusAndQueries(values).queries;
const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
server.pathname = `/${values.database}`;
const db = new pg.Pool({ connectionString: server.toString(), max: 2 });
// kb-api's own repositories read the chunks and analyse the words: they only need a `query(sql, params)` answering rows.
const source = { query: async (sql, params) => (await db.query(sql, params)).rows };
const chunkRows = new LexicalIndexRepository(source);
const termStats = new TermStatsRepository(source);

const index = new LexicalIndex();
const loadStarted = performance.now();
const ids = (await chunkRows.liveChunkIds('default')).sort((a, b) => a - b);
for (const row of await chunkRows.chunks('default', ids)) index.add(row);
const loadSeconds = (performance.now() - loadStarted) / 1000;

const analyse = (words, languages) => termStats.analyse(words, languages);
const prepared = [];
for (const [kind, list] of Object.entries(kinds)) {
  for (const question of list) {
    const words = contentTerms(question).slice(0, 32);
    if (words.length === 0) continue;
    const lookup = words.map((w, i) => ({ i: i + 1, w }));
    const stats = queryStatsOf(
      termStatsRowsOf(index, { chunks: 0, epoch: 0 }, lookup, await analysedWords(index, lookup, analyse)),
      words.map((w) => termQuery(w, undefined)),
    );
    const terms = stats.terms.map((s, i) => ({ idf: s.idf, lexemes: stats.lexemes.filter((l) => l.term === i) }));
    // kb-api sends a question with more postings than this to the SQL path (retrieval.service.ts, MAX_QUERY_POSTINGS).
    if (index.postingsOf(terms) > 1_000_000) continue;
    const { k1, b, titleWeight, headingWeight } = RANKING;
    prepared.push({ kind, terms, p: { k1, b, titleWeight, headingWeight, avgLength: stats.avgLength } });
  }
}
await db.end();

const ways = {
  'exhaustive-400': (terms, p) => index.score(terms, p, 400),
  'pruned-32': (terms, p) => index.score(terms, p, 32, 101),
  'pruned-400': (terms, p) => index.score(terms, p, 400, 401),
};
let differing = 0;
for (const { terms, p } of prepared) {
  const exhaustive = ways['exhaustive-400'](terms, p).hits.slice(0, 32);
  const pruned = ways['pruned-32'](terms, p).hits;
  if (exhaustive.map((h) => h.chunkId).join() !== pruned.map((h) => h.chunkId).join()) differing++;
}
const quantile = (sorted, q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 1000) / 1000;
const rounds = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [way, score] of Object.entries(ways)) {
    const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    let scored = 0;
    const started = performance.now();
    for (const { kind, terms, p } of prepared) {
      const t = performance.now();
      scored += score(terms, p).scored;
      times[kind].push(performance.now() - t);
    }
    const mean = (performance.now() - started) / prepared.length;
    const perKind = Object.fromEntries(
      Object.entries(times).map(([k, list]) => {
        const sorted = list.sort((x, y) => x - y);
        return [k, { p50_ms: quantile(sorted, 0.5), p95_ms: quantile(sorted, 0.95) }];
      }),
    );
    rounds.push({ round: round + 1, way, mean_ms: Math.round(mean * 1000) / 1000, chunks_scored_per_query: Math.round(scored / prepared.length), ...perKind });
  }
}
console.log(
  JSON.stringify(
    {
      chunks: index.size,
      index_load_seconds: Math.round(loadSeconds * 10) / 10,
      queries: Object.fromEntries(Object.keys(kinds).map((k) => [k, prepared.filter((q) => q.kind === k).length])),
      pruned_best_32_differing_from_exhaustive: differing,
      rounds,
    },
    null,
    2,
  ),
);
