import { Clock } from '@platform/runtime';
import { seededRandom } from '@platform/testing';
import { DataSource } from 'typeorm';
import { startKb } from '../../../test/kb-test-env';
import { SynonymsRepository } from '../admin-knowledge/curation/synonyms.repository';
import { ChunkEmbeddingsRepository } from './chunk-embeddings.repository';
import { ChunkSearchRepository } from './chunk-search.repository';
import { LexicalIndexRepository } from './lexical-index.repository';
import { LexicalIndexes } from './lexical-indexes';
import { RetrievalService } from './retrieval.service';
import type { RetrievalFilters } from './retrieval-types';
import { TermStatsRepository } from './term-stats.repository';
import { VectorSearch } from './vector-search';

const TENANT = 'depth';
const WORDS = ('backup restore replica failover signing key rotation token verifier cache region standby quarter nightly ' +
  'database archive snapshot schedule retention policy audit ledger invoice tenant budget quota alert metric').split(' ');
const PROJECTS = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c'];

/**
 * A caller asking for fewer chunks than the chat ranks (POST /api/kb/retrieve's top_k, the MCP search tools' limit, the
 * widget's search) reads back only that many. That must be a cut of the same ranking, never another one: with the per-document cap, with
 * filters that leave few of the best-scored chunks, from the in-memory index and from SQL.
 */
describe('RetrievalService.ranked: a shallower ranking is the deeper one cut short', () => {
  let db: DataSource;
  let stop: () => Promise<void>;
  let inMemory: RetrievalService;
  let sqlOnly: RetrievalService;
  let indexes: LexicalIndexes;
  /** The row limit of every read-back of in-memory rankings since last emptied. */
  const readBacks: number[] = [];
  let twoReadBacks = 0;
  let fellBackToSql = 0;

  beforeAll(async () => {
    ({ db, stop } = await startKb());
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ($1, 'Depth') ON CONFLICT DO NOTHING`, [TENANT]);
    const random = seededRandom(20261127);
    const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    // 120 documents of five chunks in three projects (c small): most queries match far more chunks than the chat ranks.
    for (let d = 0; d < 120; d++) {
      const project = PROJECTS[d % PROJECTS.length];
      const path = `${project}/doc-${d}.md`;
      const [{ id }] = await db.query(
        `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, language, status)
         VALUES ($1, $2, $3, $4, $3, 'text/markdown', 'markdown', $3, 'english', 'indexed') RETURNING id`,
        [TENANT, project, path, pick(2)],
      );
      const texts = Array.from({ length: 5 }, (_, o) => `${pick(8 + Math.floor(random() * 30))} (chunk ${o} of ${path})`);
      await db.query(
        `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title)
         SELECT $1, $2, t.o - 1, $3, t.text, md5(t.text), 'english', $4 FROM unnest($5::text[]) WITH ORDINALITY AS t(text, o)`,
        [TENANT, id, pick(1), path, texts],
      );
    }
    const chunks = new ChunkSearchRepository(db);
    const inOrder = chunks.inOrder.bind(chunks);
    chunks.inOrder = (tenant, ids, filters, options) => {
      readBacks.push(options.limit);
      return inOrder(tenant, ids, filters, options);
    };
    const services = (withIndex: boolean) =>
      new RetrievalService(
        chunks,
        new TermStatsRepository(db),
        new SynonymsRepository(db),
        new VectorSearch(new ChunkEmbeddingsRepository(db), { provider: null, minSimilarity: 0.5 }),
        new Clock(),
        undefined,
        undefined,
        withIndex ? indexes : undefined,
      );
    const repository = new LexicalIndexRepository(db);
    indexes = new LexicalIndexes(repository, 64 * 1024 * 1024);
    inMemory = services(true);
    sqlOnly = services(false);
    // Held before the comparisons, so that every query of the in-memory service is ranked from the index.
    const [{ n }] = await db.query(`SELECT coalesce(sum(chunks), 0)::int AS n FROM kb_chunk_totals WHERE tenant_id = $1`, [TENANT]);
    for (const deadline = Date.now() + 15_000; !(await indexes.current(TENANT, await repository.generationOf(TENANT), n)); ) {
      if (Date.now() > deadline) throw new Error('the index did not load');
      await new Promise((r) => setTimeout(r, 20));
    }
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  const queries = ['backup restore', 'signing key rotation for the verifier cache', 'nightly database snapshot retention policy', 'standby region failover', 'audit ledger invoice quota alert metric'];
  const filterSets: RetrievalFilters[] = [{}, { project_keys: ['b'] }, { project_keys: ['c'] }, { folder_globs: ['c/doc-1*.md'] }];
  const shape = (chunks: Array<{ chunk_id: number; score: number; document_id: number }>) => chunks.map((c) => [c.chunk_id, c.document_id, c.score]);

  it.each([
    ['the in-memory index', () => inMemory],
    ['SQL', () => sqlOnly],
  ])("from %s: every top_k up to the chat's depth gives the first top_k chunks of the chat's ranking, under every filter", async (_, service) => {
    const before = { ...indexes.statistics };
    for (const query of queries) {
      for (const filters of filterSets) {
        readBacks.length = 0;
        const chat = await service().retrieve(TENANT, query, filters);
        const chatReadBacks = readBacks.length;
        const ranking = [...chat.primary, ...chat.runner_up];
        // At most three chunks of one document.
        const perDocument = new Map<number, number>();
        for (const c of ranking) perDocument.set(c.document_id, (perDocument.get(c.document_id) ?? 0) + 1);
        expect(Math.max(0, ...perDocument.values())).toBeLessThanOrEqual(3);
        for (const topK of [1, 2, 3, 5, 8, 9, 10, 16, 22, 23]) {
          readBacks.length = 0;
          const cut = await service().ranked(TENANT, query, filters, topK);
          expect({ query, filters, topK, chunks: shape(cut.chunks), candidates: cut.candidates }).toEqual({
            query,
            filters,
            topK,
            chunks: shape(ranking.slice(0, topK)),
            candidates: chat.candidates,
          });
          // Read back in the same steps as the chat's ranking (the best 32 or 46, then the best 400), with fewer rows.
          expect(readBacks.length).toBe(chatReadBacks);
          for (const limit of readBacks) expect(limit).toBe(Math.max(topK, 8));
        }
        // The widget's search uses only primary chunks: the chat's primary chunks, grounding included, from fewer rows (an
        // unusable `uses` reads the whole depth).
        for (const uses of [1, 5, 10, 0, -3, Number.NaN]) {
          readBacks.length = 0;
          const primary = (await service().retrieve(TENANT, query, filters, { uses })).primary;
          expect({ uses, primary: primary.map((c) => [c.chunk_id, c.score, c.grounded]) }).toEqual({ uses, primary: chat.primary.map((c) => [c.chunk_id, c.score, c.grounded]) });
          for (const limit of readBacks) expect({ uses, limit }).toEqual({ uses, limit: uses > 0 ? Math.max(uses, 8) : 23 });
        }
        if (chatReadBacks === 2) twoReadBacks++;
        // Not enough even in the best 400: ranked again from the database's statistics (two read-backs more), then in SQL.
        if (chatReadBacks > 2) fellBackToSql++;
      }
    }
    if (service() === inMemory) {
      // The index served these queries, and some needed the second read-back (a filter that leaves few of the best).
      expect(indexes.statistics.index).toBeGreaterThan(before.index);
      expect(twoReadBacks).toBeGreaterThan(0);
      expect(fellBackToSql).toBeGreaterThan(0);
    }
  });
});
