import { Logger } from '@nestjs/common';
import { FakeEmbeddingsServer } from '@platform/llm';
import { createTestDatabase, TestDatabase } from '@platform/testing';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { SynonymsRepository } from '../src/app/admin-knowledge/curation/synonyms.repository';
import { ChunkEmbeddingsRepository } from '../src/app/retrieval/chunk-embeddings.repository';
import { ChunkSearchRepository } from '../src/app/retrieval/chunk-search.repository';
import { RetrievalFilters, RetrievalService } from '../src/app/retrieval/retrieval.service';
import { TermStatsRepository } from '../src/app/retrieval/term-stats.repository';
import { readVectorConfig } from '../src/app/retrieval/vector-config';
import { ChunkEmbedder } from '../src/app/retrieval/vector-embedder';
import { fuseRetrieval, VectorSearch } from '../src/app/retrieval/vector-search';
import { indexerWith, ingestMarkdown, migratedKb } from './pglite-kb';
import { PgliteServer, startPgliteServer } from './pglite-server';

/**
 * Issue 9, point 3: vector similarity fused with full-text search by reciprocal rank, where the
 * `vector` extension exists (PGlite with pgvector, served over the wire protocol) and a provider is
 * configured (a local OpenAI-compatible embeddings server whose "model" puts synonyms together), and
 * the lexical path alone on a Postgres without pgvector or without a provider.
 */

const DIMS = 512;
// What a real model knows and the full-text search does not: these words mean the same thing.
const CONCEPTS: Record<string, string> = {
  car: 'vehicle',
  automobile: 'vehicle',
  servicing: 'maintenance',
  maintenance: 'maintenance',
  interval: 'schedule',
  schedule: 'schedule',
  lubricant: 'oil',
  oil: 'oil',
};

const DOCS = {
  car: ['handbook/automobile.md', '# Automobile maintenance schedule\n\nChange the oil every 10000 kilometres.\n'],
  tax: ['finance/tax.md', '# Annual tax return\n\nSubmit the income declaration before the April deadline.\n'],
  plants: ['office/plants.md', '# Office plants\n\nWater the ferns on Mondays and the cactus monthly.\n'],
} as const;

const NO_OVERLAP = 'car servicing interval?';

const embeddingsEnv = (url: string) => ({
  KB_EMBEDDINGS_PROVIDER: 'openai',
  KB_EMBEDDINGS_BASE_URL: url,
  KB_EMBEDDINGS_MODEL: 'concepts-512',
  KB_EMBEDDINGS_TIMEOUT_MS: '2000',
  KB_VECTOR_MIN_SIMILARITY: '0.3',
});

/** The app's retrieval on `db` without an embeddings provider (the lexical path alone). */
const lexicalRetrieval = (db: DataSource) =>
  new RetrievalService(new ChunkSearchRepository(db), new TermStatsRepository(db), new SynonymsRepository(db), vectorSearch(db, {}), new Clock());
const vectorSearch = (db: DataSource, env: Record<string, string>) => new VectorSearch(new ChunkEmbeddingsRepository(db), readVectorConfig(env));

/** What RetrievalService.retrieve answers once the fusion is wired: its lexical ranking fused with the vector one. */
async function hybrid(retrieval: RetrievalService, vectors: VectorSearch, tenant: string, question: string, filters: RetrievalFilters = {}) {
  const lexical = await retrieval.retrieve(tenant, question, filters);
  const vector = await vectors.search(tenant, question, filters);
  return { lexical, vector, fused: fuseRetrieval(lexical, vector, { perDocument: 3, primary: 8, runnerUp: 15 }) };
}

describe('vector retrieval on Postgres with pgvector (PGlite)', () => {
  let pg: PgliteServer;
  let embeddings: FakeEmbeddingsServer;
  let db: DataSource;
  let kb: ReturnType<typeof indexerWith>;
  let retrieval: RetrievalService;
  let vectors: VectorSearch;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    pg = await startPgliteServer();
    embeddings = await new FakeEmbeddingsServer(DIMS, CONCEPTS).start();
    db = await migratedKb(pg.url, 'postgres');
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('acme', 'Acme'), ('globex', 'Globex'), ('initech', 'Initech')`);
    kb = indexerWith(db, embeddingsEnv(embeddings.url));
    retrieval = lexicalRetrieval(db);
    vectors = vectorSearch(db, embeddingsEnv(embeddings.url));
    for (const [key, [source, md]] of Object.entries(DOCS)) ids[key] = await ingestMarkdown(kb, 'acme', 'main', source, md);
  }, 60_000);

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await db?.destroy();
    await embeddings?.stop();
    await pg?.stop();
  });

  it('creates the extension and the embeddings table where pgvector is available', async () => {
    const [ext] = await db.query(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`);
    expect(ext.extversion).toMatch(/^\d+\.\d+/);
    const columns = await db.query(`SELECT column_name, udt_name FROM information_schema.columns WHERE table_name = 'kb_chunk_embeddings' ORDER BY ordinal_position`);
    expect(columns.map((c: { column_name: string }) => c.column_name)).toEqual(['chunk_id', 'tenant_id', 'document_id', 'model', 'dims', 'embedding', 'created_at']);
    expect(columns.find((c: { column_name: string }) => c.column_name === 'embedding').udt_name).toBe('vector');
  });

  it('embeds every chunk of an indexed document with the model and its dimension', async () => {
    const rows = await db.query(
      `SELECT c.document_id::int AS document_id, e.model, e.dims, e.tenant_id FROM kb_chunks c LEFT JOIN kb_chunk_embeddings e ON e.chunk_id = c.id ORDER BY c.id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) expect(r).toMatchObject({ model: 'concepts-512', dims: DIMS, tenant_id: 'acme' });
    expect(embeddings.calls.every((c) => c.path === '/v1/embeddings' && c.body.model === 'concepts-512')).toBe(true);
    // The title is embedded with the text: the chunk's meaning often lives in it.
    expect(embeddings.calls[0].body.input[0]).toContain('Automobile maintenance schedule');
  });

  it('finds a document sharing no word with the question through the vector path, fused first', async () => {
    const { lexical, vector, fused } = await hybrid(retrieval, vectors, 'acme', NO_OVERLAP);

    expect(lexical.primary).toEqual([]);
    expect(vector.map((h) => h.document_id)).toEqual([ids.car]);
    expect(vector[0].similarity).toBeGreaterThan(0.3);
    expect(fused.primary.map((c) => c.document_id)).toEqual([ids.car]);
    expect(fused.primary[0]).toMatchObject({ source_path: 'handbook/automobile.md', grounded: true, coverage: 0, text_score: 0 });
    expect(fused.primary[0].score).toBeCloseTo(vector[0].similarity, 3);
  });

  it('ranks a chunk both paths agree on above one found by words alone', async () => {
    // "oil" is in the car document (and the concept); "deadline" only in the tax one, lexically.
    const { lexical, fused } = await hybrid(retrieval, vectors, 'acme', 'lubricant oil deadline');

    expect(lexical.primary.map((c) => c.document_id).sort()).toEqual([ids.car, ids.tax].sort());
    expect(fused.primary[0].document_id).toBe(ids.car);
    expect(fused.primary.map((c) => c.document_id)).toContain(ids.tax);
  });

  it('answers only the asking tenant’s chunks and obeys the chat filters', async () => {
    expect(await vectors.search('globex', NO_OVERLAP)).toEqual([]);
    expect(await vectors.search('acme', NO_OVERLAP, { project_keys: ['other'] })).toEqual([]);
    expect(await vectors.search('acme', NO_OVERLAP, { folder_globs: ['handbook/**'] })).toHaveLength(1);
    expect(await vectors.search('acme', NO_OVERLAP, { folder_globs: ['finance/**'] })).toEqual([]);
  });

  it('gives the same answer through an operator’s per-dimension HNSW index', async () => {
    const exact = await vectors.search('acme', NO_OVERLAP);
    await db.query(`CREATE INDEX kb_chunk_embeddings_hnsw_${DIMS} ON kb_chunk_embeddings USING hnsw ((embedding::vector(${DIMS})) vector_cosine_ops) WHERE dims = ${DIMS}`);
    try {
      await db.query('SET enable_seqscan = off');
      const query = jest.spyOn(db, 'query');
      expect(await vectors.search('acme', NO_OVERLAP)).toEqual(exact);
      const [sql, params] = query.mock.calls.at(-1)!;
      query.mockRestore();
      const plan = (await db.query(`EXPLAIN ${sql}`, params)).map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain(`kb_chunk_embeddings_hnsw_${DIMS}`);
    } finally {
      await db.query('RESET enable_seqscan');
      await db.query(`DROP INDEX kb_chunk_embeddings_hnsw_${DIMS}`);
    }
  });

  it('leaves out chunks under the similarity floor and deleted documents', async () => {
    expect(await vectors.search('acme', 'quarterly marketing budget')).toEqual([]);
    const gone = await ingestMarkdown(kb, 'acme', 'main', 'handbook/car-old.md', '# Car schedule\n\nOld automobile interval notes.\n');
    expect((await vectors.search('acme', NO_OVERLAP)).map((h) => h.document_id)).toContain(gone);
    await db.query(`UPDATE kb_documents SET deleted_at = now() WHERE id = $1`, [gone]);
    expect((await vectors.search('acme', NO_OVERLAP)).map((h) => h.document_id)).not.toContain(gone);
  });

  it('indexes a document without vectors when the provider fails, and the backfill writes them later', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    embeddings.fail(500);
    const id = await ingestMarkdown(kb, 'globex', 'main', 'fleet/vehicles.md', '# Automobile fleet\n\nEvery automobile follows the maintenance schedule.\n');
    expect(warn).toHaveBeenCalledWith(`document ${id} of tenant globex indexed without vectors: Embeddings batch 1 of 1 failed: LLM provider answered HTTP 500.`);

    const [doc] = await db.query(`SELECT status, chunk_count FROM kb_documents WHERE id = $1`, [id]);
    expect(doc).toEqual({ status: 'indexed', chunk_count: 1 });
    expect(await db.query(`SELECT 1 FROM kb_chunk_embeddings WHERE document_id = $1`, [id])).toEqual([]);
    // The words still find it; the meaning does not, yet.
    expect((await retrieval.retrieve('globex', 'automobile fleet')).primary.map((c) => c.document_id)).toEqual([id]);
    expect(await vectors.search('globex', NO_OVERLAP)).toEqual([]);

    const embedder = new ChunkEmbedder(new ChunkEmbeddingsRepository(db), readVectorConfig(embeddingsEnv(embeddings.url)).provider);
    expect(await embedder.missing('globex')).toBe(1);
    expect(await embedder.backfill('globex')).toBe(1);
    expect(await embedder.missing('globex')).toBe(0);
    expect(await embedder.backfill('globex')).toBe(0);
    expect((await vectors.search('globex', NO_OVERLAP)).map((h) => h.document_id)).toEqual([id]);
  });

  it('backfills at most the asked number of chunks per run, oldest documents first', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    embeddings.fail(500, 500, 500);
    const docs = [];
    for (const n of [1, 2, 3]) docs.push(await ingestMarkdown(kb, 'initech', 'main', `notes/${n}.md`, `# Note ${n}\n\nAutomobile note number ${n}.\n`));
    const embedder = new ChunkEmbedder(new ChunkEmbeddingsRepository(db), readVectorConfig(embeddingsEnv(embeddings.url)).provider);

    expect(await embedder.missing('initech')).toBe(3);
    expect(await embedder.backfill('initech', 2)).toBe(2);
    const embedded = await db.query(`SELECT document_id::int AS id FROM kb_chunk_embeddings WHERE tenant_id = 'initech' ORDER BY document_id`);
    expect(embedded.map((r: { id: number }) => r.id)).toEqual(docs.slice(0, 2));
    expect(await embedder.missing('initech')).toBe(1);
    expect(await embedder.backfill('initech', 2)).toBe(1);
    expect(await embedder.missing('acme')).toBe(0);
  });

  it('replaces the vectors with the chunks when a new version is indexed', async () => {
    const before = await db.query(`SELECT chunk_id FROM kb_chunk_embeddings WHERE document_id = $1`, [ids.plants]);
    await ingestMarkdown(kb, 'acme', 'main', DOCS.plants[0], '# Office plants\n\nThe car park has a lubricant station.\n');
    const after = await db.query(`SELECT e.chunk_id FROM kb_chunk_embeddings e JOIN kb_chunks c ON c.id = e.chunk_id WHERE e.document_id = $1`, [ids.plants]);

    expect(after).toHaveLength(1);
    expect(after[0].chunk_id).not.toBe(before[0].chunk_id);
    expect(await db.query(`SELECT 1 FROM kb_chunk_embeddings WHERE chunk_id = ANY($1::bigint[])`, [before.map((r: { chunk_id: string }) => r.chunk_id)])).toEqual([]);
  });

  it('answers lexically alone when the provider fails at question time', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    embeddings.fail(503);
    const { lexical, vector, fused } = await hybrid(retrieval, vectors, 'acme', 'tax return deadline');
    expect(vector).toEqual([]);
    expect(warn).toHaveBeenCalledWith('question not embedded, lexical retrieval only: Embeddings batch 1 of 1 failed: LLM provider answered HTTP 503.');
    expect(fused.primary.map((c) => c.chunk_id)).toEqual(lexical.primary.map((c) => c.chunk_id));
    expect(fused.primary[0].document_id).toBe(ids.tax);
  });

  it('without a provider, writes no vectors and searches none', async () => {
    const plain = indexerWith(db, {});
    const id = await ingestMarkdown(plain, 'acme', 'main', 'handbook/tyres.md', '# Automobile tyres\n\nRotate them twice a year.\n');
    expect(await db.query(`SELECT 1 FROM kb_chunk_embeddings WHERE document_id = $1`, [id])).toEqual([]);
    expect(await vectorSearch(db, {}).search('acme', NO_OVERLAP)).toEqual([]);
  });
});

describe('retrieval on a Postgres without pgvector (the lexical path alone)', () => {
  let server: TestDatabase;
  let embeddings: FakeEmbeddingsServer;
  let db: DataSource;

  beforeAll(async () => {
    server = await createTestDatabase('kb_vector');
    embeddings = await new FakeEmbeddingsServer(DIMS, CONCEPTS).start();
    db = await migratedKb(server.serverUrl, server.name);
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('acme', 'Acme')`);
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await embeddings?.stop();
    await server?.drop();
  });

  it('migrates, indexes with a provider configured and answers by words, without touching vectors', async () => {
    const [available] = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    const [{ table }] = await db.query(`SELECT to_regclass('kb_chunk_embeddings') IS NOT NULL AS table`);
    // Where the server has no pgvector the migration leaves the table out and everything else works.
    expect(table).toBe(Boolean(available));
    if (table) await db.query('DROP TABLE kb_chunk_embeddings');

    const kb = indexerWith(db, embeddingsEnv(embeddings.url));
    const id = await ingestMarkdown(kb, 'acme', 'main', DOCS.car[0], DOCS.car[1]);
    const vectors = vectorSearch(db, embeddingsEnv(embeddings.url));
    const { lexical, vector, fused } = await hybrid(lexicalRetrieval(db), vectors, 'acme', 'automobile oil');

    expect(embeddings.calls).toEqual([]);
    expect(vector).toEqual([]);
    expect(lexical.primary.map((c) => c.document_id)).toEqual([id]);
    expect(fused.primary).toEqual(lexical.primary);
    expect((await hybrid(lexicalRetrieval(db), vectors, 'acme', NO_OVERLAP)).fused.primary).toEqual([]);
  });
});
