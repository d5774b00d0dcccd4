import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { SynonymsRepository } from '../admin-knowledge/curation/synonyms.repository';
import { IndirectInjectionScreen } from '../guardrails/indirect-injection';
import { TEXT_SEARCH_CONFIGS } from '../ingest/language';
import { ChunkSearchRepository, LexicalRanking, RankedCandidate } from './chunk-search.repository';
import type { IndexHit, IndexQueryTerm, LexicalIndex } from './lexical-index';
import { ChunkGeneration, LexicalIndexes } from './lexical-indexes';
import { adjacentTermPairs, groundingOf } from './grounding';
import { atLeastTsQuery, contentTerms } from './query-terms';
import { chunkFieldsOf } from './retrieval-types';
import type { RetrievalFilters, RetrievalOptions, RetrievalResult, RetrievedChunk, Retriever } from './retrieval-types';
import { alternativesOf, synonymCache, termQuery } from './synonyms';
import { analysedWords, COMMON_SHARE, QueryWord, queryStatsOf, TermStat, TermStatsRow, termStatsRowsOf } from './term-stats';
import { TermStatsRepository } from './term-stats.repository';
import { fuseRetrieval, VectorSearch } from './vector-search';

export type { RetrievalFilters, RetrievalOptions, RetrievalResult, RetrievedChunk, Retriever } from './retrieval-types';

const CANDIDATES = 100;
/** Chunks the in-memory ranking sends back to SQL for the filters: enough that the filters rarely leave too few. */
const IN_MEMORY_READ_BACK = 4 * CANDIDATES;
/** Postings a question may make the in-memory ranking walk (about 20-40 ms of one core); beyond, the SQL path ranks it. */
const MAX_QUERY_POSTINGS = 1_000_000;
/**
 * The ranking's parameters. BM25 (k1, b) over the chunk's title (weight A), heading path (B) and
 * text (D), a term's frequency counting an occurrence in the title `titleWeight` times and in the
 * heading path `headingWeight` times (BM25F-style field weighting). The candidates BM25 scores come
 * from a prefilter through the GIN index alone: it reads the chunks holding the most finder terms
 * first, at least TIERS of them, then one fewer, down to two, then each finder term alone (see
 * lexical()), `prefilter` chunks at most, so the costly scoring reads a few hundred chunks instead
 * of every chunk holding any query term. The rarest `maxFinders` terms find.
 */
export interface RankingParams {
  k1: number;
  b: number;
  titleWeight: number;
  headingWeight: number;
  maxFinders: number;
  prefilter: number;
}
export const RANKING: RankingParams = { k1: 1.8, b: 0.75, titleWeight: 2, headingWeight: 1.5, maxFinders: 6, prefilter: 400 };
/** Overrides of RANKING, for the evaluation's parameter search only. */
export const RANKING_PARAMS = Symbol('kb-api.RANKING_PARAMS');
const TIERS = 4;
/** The chunks the chat grounds its answer on (and cites), best first; the rest of the depth are runners-up. */
export const PRIMARY = 8;
const PER_DOCUMENT = 3;
const RUNNER_UP = 15;
/** The deepest ranking a caller may ask for (POST /api/kb/retrieve's top_k). */
export const MAX_DEPTH = 100;

export { globToRegex } from './retrieval-filters';

/**
 * BM25 over Postgres full text: each indexed language is matched with its own stemmer and stop
 * words (one GIN index), every chat filter is applied in SQL with the tenant. A question, claim or
 * keyword list is an OR of its analysed terms, so a long query needs no chunk to hold every word.
 * Document frequencies and lengths are the tenant's own, kept current by triggers on every chunk
 * write (term-stats.ts). Where the tenant's in-memory index is available (lexical-indexes.ts), BM25
 * with title and heading weighting scores every chunk holding a term there and the best are read back
 * under the filters in SQL; otherwise the distinctive terms find candidates in SQL and the same BM25
 * ranks them. At most three chunks per document are kept. A question word with synonyms
 * (the tenant's synonym sets) counts as found wherever the word or one of its synonyms is. Which
 * question words each chunk contains also decides whether it can ground an answer (grounding.ts).
 */
@Injectable()
export class RetrievalService {
  private readonly ranking: RankingParams;

  constructor(
    private readonly chunks: ChunkSearchRepository,
    private readonly termStats: TermStatsRepository,
    private readonly synonyms: SynonymsRepository,
    private readonly vectors: VectorSearch,
    private readonly clock: Clock,
    @Optional() @Inject(RANKING_PARAMS) ranking?: Partial<RankingParams>,
    @Optional() private readonly indirect?: IndirectInjectionScreen,
    @Optional() private readonly indexes?: LexicalIndexes,
  ) {
    this.ranking = { ...RANKING, ...ranking };
  }

  /** Full text, fused by reciprocal rank with vector similarity where pgvector and an embedding provider exist (vector-search.ts). */
  async retrieve(
    tenantId: string,
    question: string,
    filters: RetrievalFilters = {},
    options: RetrievalOptions = {},
  ): Promise<RetrievalResult> {
    const depth = Math.min(MAX_DEPTH, Math.max(PRIMARY + RUNNER_UP, options.depth ?? 0));
    // Flagged chunks are left out unless the setting quotes them (read per query: it changes live).
    const excludeFlagged = (this.indirect?.handling ?? 'exclude') === 'exclude';
    // Rows read back with their text: those the caller uses (the whole depth unless it says fewer), at least the primary
    // chunks (grounded together). Fused with vector similarity, chunks far down the lexical list can rise into the top,
    // so then the whole depth is read back.
    const uses = Number.isSafeInteger(options.uses) && options.uses! > 0 ? options.uses! : depth;
    const rows = this.vectors.enabled ? depth : Math.min(depth, Math.max(PRIMARY, uses));
    const [lexical, vector] = await Promise.all([
      this.lexical(tenantId, question, filters, { depth, rows }, excludeFlagged),
      this.vectors.search(tenantId, question, filters, { excludeFlagged }),
    ]);
    const fused = fuseRetrieval(lexical, vector, {
      perDocument: PER_DOCUMENT,
      primary: PRIMARY,
      runnerUp: depth - PRIMARY,
    });
    return { ...fused, retrievers: this.vectors.enabled ? ['lexical', 'vector'] : ['lexical'] };
  }

  /**
   * The ranking alone, best first, one entry per chunk: the chat's primary chunks then its
   * runners-up, so POST /api/kb/retrieve, the MCP search tools and the chat share one order.
   */
  async ranked(
    tenantId: string,
    query: string,
    filters: RetrievalFilters,
    topK: number,
  ): Promise<{ chunks: RetrievedChunk[]; candidates: number; retrievers: Retriever[] }> {
    const found = await this.retrieve(tenantId, query, filters, { depth: topK, uses: topK });
    return { chunks: [...found.primary, ...found.runner_up].slice(0, topK), candidates: found.candidates, retrievers: found.retrievers };
  }

  private async lexical(
    tenantId: string,
    question: string,
    filters: RetrievalFilters,
    cut: { depth: number; rows: number },
    excludeFlagged: boolean,
    statisticsFromIndex = true,
  ): Promise<RetrievalResult> {
    const { depth } = cut;
    const terms = contentTerms(question).slice(0, 32);
    const empty: RetrievalResult = { terms, primary: [], runner_up: [], candidates: 0, retrievers: ['lexical'] };
    if (terms.length === 0) return empty;
    // A word with synonyms is searched, counted and scored as the OR of the word and its synonyms.
    const alternatives = alternativesOf(terms, await synonymCache.setsOf(this.synonyms, this.clock, tenantId), filters.project_keys);
    const { k1, b, titleWeight, headingWeight, maxFinders, prefilter } = this.ranking;
    const operands = terms.map((t) => termQuery(t, alternatives.get(t)));
    const words = terms.flatMap((t, i) => [t, ...(alternatives.get(t) ?? []).filter((a) => a.length === 1).map((a) => a[0])].map((w) => ({ i: i + 1, w })));
    // The in-memory index ranks every chunk holding a question term; it knows lexemes, not positions, so a question
    // with a phrase synonym (matched as a phrase) is ranked in SQL.
    const phrases = [...alternatives.values()].some((list) => list.some((synonym) => synonym.length > 1));
    // Where the tenant's index is held, the statistics come from it (one round trip fewer); the read-back then tells
    // whether the database had moved on, and if so the question is ranked again from the database's statistics.
    const fromIndex = statisticsFromIndex && !phrases && this.indexes ? await this.statisticsFromIndex(tenantId, words) : undefined;
    if (this.indexes) this.indexes.statistics[fromIndex ? 'index' : 'database']++;
    const { terms: stats, lexemes, avgLength, chunks, languages, generation } = queryStatsOf(
      fromIndex ? fromIndex.rows : await this.termStats.lookup(tenantId, words),
      operands,
    );
    // Candidates are found by the distinctive terms; common ones only score (and stay cheap to match).
    const present = stats.filter((s) => s.df > 0);
    // Statistics from the index are checked against the database only by the in-memory ranking's read-back: any other
    // way out (nothing found, the SQL ranking) asks the database's statistics, which a write since loading may change.
    const classic = () => this.lexical(tenantId, question, filters, cut, excludeFlagged, false);
    if (present.length === 0) return fromIndex ? classic() : empty;
    const finders = present.filter((s) => !s.common);
    const find = (finders.length ? finders : present)
      .sort((a, b) => a.df - b.df)
      .slice(0, finders.length ? maxFinders : 2);
    const totalWeight = stats.reduce((sum, s) => sum + s.idf, 0);
    // Tiers, best first: at least k finder terms for k = TIERS..2, then each finder term alone, rarest first (a chunk holding one
    // finder term scores mostly by that term's weight). A lower tier is read only while the tiers above hold fewer than half of
    // CANDIDATES chunks (the rerank rarely prefers a chunk with fewer finder terms), filling up to the prefilter.
    const finderTerms = find.map((s) => s.term);
    const top = Math.min(TIERS, finderTerms.length);
    const tiers = [...Array.from({ length: Math.max(0, top - 1) }, (_, i) => atLeastTsQuery(top - i, finderTerms)), ...finderTerms];
    // The languages of the tenant's live chunks, from its statistics (kb_chunk_totals) rather than a scan of its documents:
    // they include every indexed document's language, and a branch for a language whose documents are all pending
    // matches nothing.
    const configs = TEXT_SEARCH_CONFIGS.filter((cfg) => languages.includes(cfg));
    if (configs.length === 0) return fromIndex ? classic() : empty;
    const plan: LexicalRanking = {
      finder: finderTerms.join(' | '),
      terms: stats.map((s) => s.term),
      idfs: stats.map((s) => s.idf),
      lexemes,
      bm25: { k1, b, titleWeight, headingWeight, avgLength },
      tiers,
      tierEnough: CANDIDATES / 2,
      prefilter,
      languages: configs,
      limit: CANDIDATES,
      filters,
      excludeFlagged,
    };
    const index = fromIndex ? fromIndex.index : this.indexes && !phrases ? await this.indexes.current(tenantId, generation, chunks) : undefined;
    const inMemory = index && (await this.rankInMemory(tenantId, index, plan, cut));
    if (fromIndex && (!inMemory || newer(inMemory.generation, generation))) return classic();
    const rows = inMemory ? inMemory.rows : await this.chunks.rank(tenantId, plan);
    const maxBm25 = Math.max(0, ...rows.map((r) => r.bm25));
    const found = new Map(rows.map((r) => [r.chunk_id, r.found.map((i) => i - 1)]));
    // BM25's ceiling for this query: every term saturated. The score is BM25 over it, 0..1.
    const ceiling = totalWeight * (k1 + 1);
    const scored = rows.map((r): RetrievedChunk => {
      const coverage = r.matched / totalWeight;
      const textScore = maxBm25 > 0 ? r.bm25 / maxBm25 : 0;
      const score = ceiling > 0 ? Math.min(1, r.bm25 / ceiling) : 0;
      return { ...chunkFieldsOf(r), text_score: round(textScore), coverage: round(coverage), score: round(score), grounded: false };
    });
    // Rows come best first (BM25, then coverage); rounding the score must not reorder them.
    const perDoc = new Map<number, number>();
    const kept: RetrievedChunk[] = [];
    for (const c of scored) {
      const n = perDoc.get(c.document_id) ?? 0;
      if (n >= PER_DOCUMENT) continue;
      perDoc.set(c.document_id, n + 1);
      kept.push(c);
    }
    const shown = kept.slice(0, depth);
    const grounded = groundingOf(
      groundingWeights(stats, chunks),
      adjacentTermPairs(question, terms),
      shown.map((c) => ({ found: found.get(c.chunk_id) ?? [], score: c.score })),
      PRIMARY,
    );
    shown.forEach((c, i) => (c.grounded = grounded[i]));
    return {
      terms,
      primary: shown.slice(0, PRIMARY),
      runner_up: shown.slice(PRIMARY),
      candidates: inMemory ? inMemory.candidates : rows.length,
      retrievers: ['lexical'],
    };
  }

  /**
   * The statistics lookup's rows (term-stats.repository.ts) from the tenant's held index instead of
   * the database: each question word's lexemes under each language of the index's live chunks (as
   * Postgres analysed the word for an earlier question, or analysed now for the words not seen
   * yet), their document frequencies, each language's totals and the change counters the index
   * reflects. The same numbers the database's statistics give for the chunks the index holds
   * (lexical-indexes.int-spec.ts compares them); undefined when no index is held.
   */
  private async statisticsFromIndex(tenantId: string, words: QueryWord[]): Promise<{ rows: TermStatsRow[]; index: LexicalIndex } | undefined> {
    const before = this.indexes!.loaded(tenantId);
    if (!before) return undefined;
    const analysed = await analysedWords(before.index, words, (unknown, languages) => this.termStats.analyse(unknown, languages));
    // Read again after the analysis: a refresh may have started or ended meanwhile.
    const held = this.indexes!.loaded(tenantId);
    if (!held || held.index !== before.index) return undefined;
    const rows = termStatsRowsOf(held.index, held.generation, words, analysed);
    return rows && { rows, index: held.index };
  }

  /**
   * BM25 over the tenant's chunks holding a question term, from the in-memory index (those no term
   * left could lift into the best sent are skipped: LexicalIndex.score), then the best chunks read
   * back in that order with the filters applied in SQL: twice as many as the
   * ranking shows first (each costs index probes), the best 400 when the filters, the cap per
   * document or chunks the index still holds but the database no longer shows leave too few. When
   * even those leave fewer than the ranking needs while more were scored, answers undefined: the
   * SQL path, whose candidates are found under the filters, ranks instead. `candidates` counts the
   * chunks scored (those the filters let through, when there are filters), at most CANDIDATES as on
   * the SQL path. Only the first `rows` come back with their text; what is enough is judged by the
   * whole `depth`, so the rows are the first of the ranking the whole depth would give.
   */
  private async rankInMemory(
    tenantId: string,
    index: LexicalIndex,
    plan: LexicalRanking,
    { depth, rows: keep }: { depth: number; rows: number },
  ): Promise<{ rows: RankedCandidate[]; candidates: number; generation: ChunkGeneration } | undefined> {
    const terms: IndexQueryTerm[] = plan.idfs.map((idf, i) => ({ idf, lexemes: plan.lexemes.filter((l) => l.term === i) }));
    // Scoring walks every posting of every term on the event loop: a question of many very common words would hold it
    // for tens of milliseconds, so it goes to the SQL path, whose candidates come from the rarest words alone.
    if (index.postingsOf(terms) > MAX_QUERY_POSTINGS) return undefined;
    const filtered = Object.values(plan.filters).some((v) => v !== undefined && (!Array.isArray(v) || v.length > 0));
    // The chunks scored are counted exactly up to one more than are sent (so "every scored chunk was sent" is known) and
    // at least up to CANDIDATES (the count reported); past that, scoring may skip chunks that cannot reach the best sent.
    const rank = (count: number) => index.score(terms, plan.bm25, count, Math.max(count + 1, CANDIDATES));
    const readBack = async ({ hits, scored }: { hits: IndexHit[]; scored: number }, complete: boolean) => {
      const answer = await this.chunks.inOrder(tenantId, hits.map((h) => h.chunkId), plan.filters, {
        excludeFlagged: plan.excludeFlagged,
        perDocument: PER_DOCUMENT,
        limit: keep,
      });
      // Enough: as many rows as shown, or every scored chunk was sent, or all the best 400 passed and only the cap per
      // document left fewer (the SQL path, ranking 100 candidates under the same cap, could not show more).
      const shown = Math.min(answer.capped, depth);
      const enough = shown >= Math.min(depth, scored) || hits.length >= scored || (complete && answer.passed === hits.length);
      return { ...answer, enough, hits, scored };
    };
    // Twice as many as shown first (each costs index probes); the best 400 when the filters, the cap per document or
    // chunks the index still holds but the database no longer shows leave too few.
    const first = Math.max(32, 2 * depth);
    let answer = await readBack(rank(first), false);
    if (!answer.enough && answer.scored > first) answer = await readBack(rank(IN_MEMORY_READ_BACK), true);
    if (!answer.enough) return undefined;
    const { hits, scored } = answer;
    const byId = new Map(hits.map((h) => [h.chunkId, h]));
    const rows = answer.rows.map((r): RankedCandidate => {
      const hit = byId.get(r.chunk_id)!;
      const found: number[] = [];
      for (let i = 0; i < terms.length; i++) if (hit.found & (1 << i)) found.push(i + 1);
      return { ...chunkFieldsOf(r), bm25: hit.bm25, matched: hit.matched, found };
    });
    return { rows, candidates: Math.min(CANDIDATES, filtered ? answer.passed : scored), generation: answer.generation };
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Whether the database's change counters `read` are past those an index reflects. */
const newer = (read: ChunkGeneration, reflected: ChunkGeneration) => read.chunks > reflected.chunks || read.epoch > reflected.epoch;

/**
 * The weights grounding judges with: BM25's IDF, except that a common term (df above the common
 * limit) weighs as if it were just over the limit. A question's common words then keep a floor of
 * weight, so a chunk that lacks one of them ("mappings" beside "index") still misses something;
 * the grounding thresholds were chosen with this floor (docs/kb-retrieval-eval.md).
 */
export function groundingWeights(stats: TermStat[], chunks: number): TermStat[] {
  const limit = Math.max(20, Math.ceil(chunks * COMMON_SHARE));
  return stats.map((s) => {
    if (s.df <= limit) return s;
    const df = limit + 1;
    const n = Math.max(chunks, df);
    return { ...s, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
  });
}
