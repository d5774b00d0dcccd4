import { FakeEmbeddingsServer } from '@platform/llm';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { ChunkEmbeddingsRepository } from '../src/app/retrieval/chunk-embeddings.repository';
import { RetrievalService } from '../src/app/retrieval/retrieval.service';
import { readVectorConfig } from '../src/app/retrieval/vector-config';
import { VectorSearch } from '../src/app/retrieval/vector-search';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { PgliteServer, startPgliteServer } from './pglite-server';

/**
 * The whole kb-api (API and BullMQ worker, every migration) on PGlite with pgvector: documents
 * ingested through the API are embedded by the worker's IndexerService, configured by env only.
 */
const CONCEPTS = { car: 'vehicle', automobile: 'vehicle', servicing: 'maintenance', maintenance: 'maintenance', interval: 'schedule', schedule: 'schedule' };
const EMBEDDINGS_MODEL = 'concepts-256';

describe('kb-api and its worker on Postgres with pgvector (PGlite)', () => {
  const machineDatabaseUrl = process.env.DATABASE_URL;
  let pg: PgliteServer;
  let embeddings: FakeEmbeddingsServer;
  let kb: Awaited<ReturnType<typeof startKb>>;
  let worker: WorkerHandle;
  let token: string;
  let env: Record<string, string>;
  const client = () => new KbClient(kb.svc.url);

  const waitIndexed = async (count: number) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [{ n }] = await kb.db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`);
      if (n >= count || Date.now() > deadline) return n;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    pg = await startPgliteServer();
    embeddings = await new FakeEmbeddingsServer(256, CONCEPTS).start();
    env = {
      KB_EMBEDDINGS_PROVIDER: 'openai',
      KB_EMBEDDINGS_BASE_URL: embeddings.url,
      KB_EMBEDDINGS_MODEL: EMBEDDINGS_MODEL,
      KB_VECTOR_MIN_SIMILARITY: '0.3',
      // PGlite serves every pooled connection from one session, so two jobs at once would share one
      // transaction (and one row-security role): the worker takes one job at a time here.
      KB_WORKER_CONCURRENCY: '1',
      // For the same reason a statement prepared on one pooled connection already exists on the next: no named statements.
      DATABASE_PREPARE_AFTER: '0',
    };
    process.env.DATABASE_URL = pg.url;
    kb = await startKb(env);
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(kb.db, { email: 'editor@example.com', roles: ['admin'] });
    token = (await client().call('POST', '/api/auth/token', { body: { email: 'editor@example.com', password: 'correct horse battery staple' } })).body.token;
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    // PGlite serves every client from one session: a request's row-security role (SET ROLE
    // kb_tenant on its pooled connection) would still be in force for the database drop.
    await kb?.db.query('RESET ROLE');
    await kb?.stop();
    await embeddings?.stop();
    await pg?.stop();
    process.env.DATABASE_URL = machineDatabaseUrl;
  }, 60_000);

  it('embeds what the worker indexes, and the vector path finds it by meaning', async () => {
    const r = await client().call('POST', '/api/kb/ingest', {
      token,
      body: {
        documents: [
          { project_key: 'fleet', source_path: 'automobile.md', content: '# Automobile maintenance schedule\n\nChange the oil every 10000 kilometres.\n' },
          { project_key: 'fleet', source_path: 'tax.md', content: '# Annual tax return\n\nSubmit the income declaration before the April deadline.\n' },
        ],
      },
    });
    expect(r.status).toBe(202);
    expect(await waitIndexed(2)).toBe(2);

    // The worker embeds after it commits the index, so a document can be indexed a moment before its vectors land.
    const embedded = async () => kb.db.query(`SELECT d.source_path, e.model, e.dims FROM kb_chunk_embeddings e JOIN kb_documents d ON d.id = e.document_id ORDER BY d.source_path`);
    // A hang guard, not a timing assertion: PGlite runs single-threaded and a busy machine slows it.
    const deadline = Date.now() + 60_000;
    let vectors = await embedded();
    while (vectors.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      vectors = await embedded();
    }
    expect(vectors).toEqual([
      { source_path: 'automobile.md', model: EMBEDDINGS_MODEL, dims: 256 },
      { source_path: 'tax.md', model: EMBEDDINGS_MODEL, dims: 256 },
    ]);

    // The words still answer through the API.
    const chat = await client().call('POST', '/api/kb/chat', { token, body: { question: 'When is the tax return deadline?' } });
    expect(chat.status).toBe(200);
    expect(chat.body.citations[0]).toMatchObject({ source_path: 'tax.md' });

    // A question sharing no word with the document (the full-text search alone finds nothing: see
    // vector-retrieval.e2e-spec.ts): the app's retrieval, fused with the vector path, finds it, and
    // the chat answers from it.
    const question = 'car servicing interval?';
    const vector = await new VectorSearch(new ChunkEmbeddingsRepository(kb.db), readVectorConfig(env)).search('default', question);
    expect(vector.map((h) => h.source_path)).toEqual(['automobile.md']);
    const retrieved = await kb.svc.app.get(RetrievalService, { strict: false }).retrieve('default', question);
    expect(retrieved.primary.map((c) => c.source_path)).toEqual(['automobile.md']);
    const answered = await client().call('POST', '/api/kb/chat', { token, body: { question } });
    expect(answered.body.refusal_reason).toBeNull();
    expect(answered.body.citations[0]).toMatchObject({ source_path: 'automobile.md' });
  }, 120_000);
});
