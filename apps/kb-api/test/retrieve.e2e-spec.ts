import { Clock, startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService, TestJwksIssuer } from '@platform/testing';
import { DataSource } from 'typeorm';
import { SynonymsRepository } from '../src/app/admin-knowledge/curation/synonyms.repository';
import { ChunkEmbeddingsRepository } from '../src/app/retrieval/chunk-embeddings.repository';
import { ChunkSearchRepository } from '../src/app/retrieval/chunk-search.repository';
import { RetrievalService } from '../src/app/retrieval/retrieval.service';
import { TermStatsRepository } from '../src/app/retrieval/term-stats.repository';
import { VectorSearch } from '../src/app/retrieval/vector-search';
import { createUser, KbClient, waitIndexed } from './kb-fixtures';
import { startKb } from './kb-test-env';

const ROTATION = `# Signing key rotation

Signing keys rotate through the states next, active, retiring and retired.

## Publishing ahead

A new signing key is published in the JWKS at least one cache lifetime before it signs, so offline verifiers never meet an unknown key id.
`;

const BACKUPS = `# Database backups

Backups of the Postgres database run nightly and are kept for thirty days. A restore is rehearsed every quarter.
`;

const CACHING = `# JWKS caching

Verifiers cache the JWKS for ten minutes and refetch it when a token names an unknown key id.
`;

describe('POST /api/kb/retrieve', () => {
  let svc: RunningService;
  let db: DataSource;
  let issuer: TestJwksIssuer;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let token: string;
  const client = () => new KbClient(svc.url);
  const retrieve = (body: unknown, t = token) => client().call('POST', '/api/kb/retrieve', { token: t, body });

  beforeAll(async () => {
    ({ svc, db, issuer, stop } = await startKb());
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(db, { email: 'reader@example.com', roles: ['viewer'] });
    token = (await client().call('POST', '/api/auth/token', { body: { email: 'reader@example.com', password: 'correct horse battery staple' } })).body.token;
    const ingest = await client().call('POST', '/api/kb/ingest', {
      token,
      body: {
        documents: [
          { project_key: 'platform', source_path: 'guides/rotation.md', content: ROTATION },
          { project_key: 'ops', source_path: 'runbooks/backups.md', content: BACKUPS },
          { project_key: 'platform', source_path: 'guides/jwks-caching.md', content: CACHING },
        ],
      },
    });
    expect(ingest.status).toBe(202);
    await waitIndexed(db, 3);
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
  });

  it('answers ranked chunks, best first, with the documented shape', async () => {
    const r = await retrieve({ query: 'When is a new signing key published in the JWKS?' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'meta']);
    expect(r.body.meta).toEqual({ total_candidates: expect.any(Number), latency_ms: expect.any(Number), retrievers: ['lexical'] });
    expect(r.body.meta.total_candidates).toBeGreaterThanOrEqual(r.body.data.length);
    const [first] = r.body.data;
    expect(first).toEqual({
      document_id: expect.any(Number),
      chunk_id: expect.any(Number),
      source_path: 'guides/rotation.md',
      title: 'Signing key rotation',
      project_key: 'platform',
      score: expect.any(Number),
      snippet: expect.stringContaining('published in the JWKS'),
    });
    expect(first.snippet.length).toBeLessThanOrEqual(240);
    const scores = r.body.data.map((d: { score: number }) => d.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const chunkIds = r.body.data.map((d: { chunk_id: number }) => d.chunk_id);
    expect(new Set(chunkIds).size).toBe(chunkIds.length);
    expect(r.body.data.map((d: { source_path: string }) => d.source_path)).not.toContain('runbooks/backups.md');
  });

  it('cuts the ranking at top_k (default 10) and applies the chat filters', async () => {
    const all = await retrieve({ query: 'signing key JWKS verifiers', top_k: 100 });
    expect(all.body.data.length).toBeGreaterThan(1);
    const one = await retrieve({ query: 'signing key JWKS verifiers', top_k: 1 });
    expect(one.body.data).toEqual([all.body.data[0]]);
    const ops = await retrieve({ query: 'signing key JWKS verifiers nightly backups', filters: { project_keys: ['ops'] } });
    expect(ops.body.data.map((d: { project_key: string }) => d.project_key)).toEqual(['ops']);
    // filters: null is no filters, as absent.
    expect((await retrieve({ query: 'signing key JWKS verifiers', top_k: 100, filters: null })).body.data).toEqual(all.body.data);
    const globbed = await retrieve({ query: 'signing key JWKS verifiers', filters: { folder_globs: ['guides/jwks-*.md'] } });
    expect(globbed.body.data.map((d: { source_path: string }) => d.source_path)).toEqual(['guides/jwks-caching.md']);
  });

  it('matches inflections and ignores stop words in a long natural-language query', async () => {
    const r = await retrieve({ query: 'It is claimed that the backup of the databases is being run every night and kept for a month.' });
    expect(r.body.data[0]).toMatchObject({ source_path: 'runbooks/backups.md' });
  });

  it('validates the body: query 1–10000 characters, top_k 1–100, the chat filter object', async () => {
    for (const body of [{}, { query: '' }, { query: 'x'.repeat(10_001) }, { query: 'keys', top_k: 0 }, { query: 'keys', top_k: 101 }, { query: 'keys', top_k: 2.5 }, { query: 'keys', top_k: null }, { query: 'keys', filters: { project_keys: 'platform' } }]) {
      const r = await retrieve(body);
      expect({ body, status: r.status }).toEqual({ body, status: 422 });
      expect(r.body.errors).toEqual(expect.any(Object));
    }
    // A filter sent null is refused by name (null is not "no such filter"; only filters itself takes null).
    const nulled = await retrieve({ query: 'keys', filters: { project_keys: null, collection_id: null } });
    expect([nulled.status, Object.keys(nulled.body.errors).sort()]).toEqual([422, ['filters.collection_id', 'filters.project_keys']]);
    const dates = await retrieve({ query: 'keys', filters: { date_from: '2026-03-02', date_to: '2026-03-01' } });
    expect(dates.status).toBe(422);
    expect(Object.keys(dates.body.errors)).toEqual(['filters.date_to']);
    expect((await retrieve({ query: 'x'.repeat(10_000) })).status).toBe(200);
  });

  it('needs authentication and, for bearer tokens, the kb:read ability', async () => {
    expect((await client().call('POST', '/api/kb/retrieve', { body: { query: 'keys' } })).status).toBe(401);
    const chatOnly = await issuer.mint({ scope: 'kb:chat', extra: { tenant_id: 'default' } });
    expect(await retrieve({ query: 'keys' }, chatOnly)).toMatchObject({ status: 403, body: { error: 'token_ability_forbidden' } });
    const reader = await issuer.mint({ scope: 'kb:read', extra: { tenant_id: 'default' } });
    expect((await retrieve({ query: 'signing key rotation' }, reader)).body.data.length).toBeGreaterThan(0);
  });

  it('keeps the per-tenant BM25 statistics exact through ingest, a new version, soft delete, restore and hard delete', async () => {
    // The statistics as the triggers keep them, against a count from scratch over the live chunks.
    const drift = async () => {
      const [{ terms, totals }] = await db.query(`
        WITH fresh AS (
          SELECT c.tenant_id, c.language, u.lexeme, count(*)::int AS df
            FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL, unnest(c.tsv) u GROUP BY 1, 2, 3),
        fresh_totals AS (
          SELECT c.tenant_id, c.language, count(*)::bigint AS chunks, sum(kb_tsv_tokens(c.tsv))::bigint AS tokens
            FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL GROUP BY 1, 2),
        kept_totals AS (SELECT tenant_id, language, chunks, tokens FROM kb_chunk_totals WHERE chunks <> 0)
        SELECT (SELECT count(*) FROM ((SELECT * FROM fresh EXCEPT SELECT * FROM kb_term_stats) UNION ALL (SELECT * FROM kb_term_stats EXCEPT SELECT * FROM fresh)) x)::int AS terms,
               (SELECT count(*) FROM ((SELECT * FROM fresh_totals EXCEPT SELECT * FROM kept_totals) UNION ALL (SELECT * FROM kept_totals EXCEPT SELECT * FROM fresh_totals)) x)::int AS totals`);
      return { terms, totals };
    };
    const df = async (lexeme: string) => (await db.query(`SELECT coalesce(sum(df), 0)::int AS n FROM kb_term_stats WHERE tenant_id = 'default' AND lexeme = $1`, [lexeme]))[0].n;
    const waitFor = async (check: () => Promise<boolean>) => {
      const deadline = Date.now() + 15_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('the worker did not index the document in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const ingest = (content: string) => client().call('POST', '/api/kb/ingest', { token, body: { documents: [{ project_key: 'ops', source_path: 'runbooks/restores.md', content }] } });
    expect(await drift()).toEqual({ terms: 0, totals: 0 });
    expect(await df('quarter')).toBe(1);

    expect((await ingest('# Restores\n\nA restore drill runs every quarter against a copy of the nightly backup.\n')).status).toBe(202);
    await waitFor(async () => (await df('drill')) === 1);
    expect(await df('quarter')).toBe(2);
    expect(await drift()).toEqual({ terms: 0, totals: 0 });

    expect((await ingest('# Restores\n\nRestores are rehearsed monthly.\n')).status).toBe(202);
    await waitFor(async () => (await df('drill')) === 0);
    expect(await df('quarter')).toBe(1);
    expect(await drift()).toEqual({ terms: 0, totals: 0 });

    const remove = (force: boolean) => client().call('DELETE', '/api/kb/documents', { token, body: { documents: [{ project_key: 'ops', source_path: 'runbooks/restores.md' }], force } });
    expect((await remove(false)).status).toBe(200);
    expect(await df('month')).toBe(0);
    expect(await drift()).toEqual({ terms: 0, totals: 0 });
    const gone = await retrieve({ query: 'restores rehearsed monthly' });
    expect(gone.body.data.map((d: { source_path: string }) => d.source_path)).not.toContain('runbooks/restores.md');

    expect((await ingest('# Restores\n\nRestores are rehearsed monthly.\n')).status).toBe(202);
    await waitFor(async () => (await df('month')) === 1);
    expect(await drift()).toEqual({ terms: 0, totals: 0 });

    expect((await remove(true)).status).toBe(200);
    expect(await df('month')).toBe(0);
    expect(await drift()).toEqual({ terms: 0, totals: 0 });
  });

  it('ranks from the in-memory index as the SQL path ranks, and sees a write at the next query', async () => {
    // The same ranking without an in-memory index: every query ranked in SQL (KB_LEXICAL_INDEX_MAX_MB=0 does this in an app).
    const sqlOnly = new RetrievalService(
      new ChunkSearchRepository(db),
      new TermStatsRepository(db),
      new SynonymsRepository(db),
      new VectorSearch(new ChunkEmbeddingsRepository(db), { provider: null, minSimilarity: 0.5 }),
      new Clock(),
    );
    const heldChunks = async () => Number(/^kb_lexical_index_chunks(?:\{[^}]*\})? (\S+)$/m.exec(await (await fetch(`${svc.url}/metrics`)).text())?.[1]);
    // At most six words: on a corpus this small the SQL path's candidates are then every chunk holding one (its finders).
    for (const query of ['When is a new signing key published?', 'backups kept thirty days', 'verifiers refetch unknown key id', 'restore rehearsed quarter']) {
      const http = await retrieve({ query, top_k: 20 });
      const sql = await sqlOnly.ranked('default', query, {}, 20);
      expect(http.body.data.map((d: { chunk_id: number; score: number }) => [d.chunk_id, d.score])).toEqual(sql.chunks.map((c) => [c.chunk_id, c.score]));
    }
    expect(await heldChunks()).toBeGreaterThan(0);
    // Once the tenant is held, the statistics come from the index (no statistics query), with the same ranking.
    const statistics = async (source: string) =>
      Number(new RegExp(`^kb_retrieval_statistics_total\\{source="${source}"[^}]*\\} (\\S+)$`, 'm').exec(await (await fetch(`${svc.url}/metrics`)).text())?.[1] ?? 0);
    const fromIndex = await statistics('index');
    const query = 'restore rehearsed quarter';
    expect((await retrieve({ query, top_k: 20 })).body.data.map((d: { chunk_id: number; score: number }) => [d.chunk_id, d.score])).toEqual(
      (await sqlOnly.ranked('default', query, {}, 20)).chunks.map((c) => [c.chunk_id, c.score]),
    );
    expect(await statistics('index')).toBe(fromIndex + 1);

    const ingest = (content: string) => client().call('POST', '/api/kb/ingest', { token, body: { documents: [{ project_key: 'ops', source_path: 'runbooks/failover.md', content }] } });
    const paths = async (query: string) => (await retrieve({ query, top_k: 20 })).body.data.map((d: { source_path: string }) => d.source_path);
    const indexedWith = async (word: string) => {
      const deadline = Date.now() + 15_000;
      while ((await db.query(`SELECT 1 FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id WHERE d.source_path = 'runbooks/failover.md' AND d.status = 'indexed' AND c.text LIKE $1`, [`%${word}%`])).length === 0) {
        if (Date.now() > deadline) throw new Error('the worker did not index the document in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    expect((await ingest('# Failover\n\nThe standby region takes over within four minutes.\n')).status).toBe(202);
    await indexedWith('standby');
    // The held index is behind the write: its statistics are tried, the read-back shows the newer chunks, and the
    // question is ranked again from the database's statistics (which brings the index up to date).
    const [triedIndex, readDatabase] = [await statistics('index'), await statistics('database')];
    expect(await paths('standby region takes over')).toContain('runbooks/failover.md');
    expect([await statistics('index'), await statistics('database')]).toEqual([triedIndex + 1, readDatabase + 1]);
    expect(await paths('standby region takes over')).toContain('runbooks/failover.md');
    expect([await statistics('index'), await statistics('database')]).toEqual([triedIndex + 2, readDatabase + 1]);
    expect((await ingest('# Failover\n\nPromoting the replica is a manual step.\n')).status).toBe(202);
    await indexedWith('replica');
    expect(await paths('standby region')).not.toContain('runbooks/failover.md');
    expect(await paths('promoting the replica manually')).toContain('runbooks/failover.md');
    const remove = (force: boolean) => client().call('DELETE', '/api/kb/documents', { token, body: { documents: [{ project_key: 'ops', source_path: 'runbooks/failover.md' }], force } });
    expect((await remove(false)).status).toBe(200);
    expect(await paths('promoting the replica manually')).not.toContain('runbooks/failover.md');
    expect((await remove(true)).status).toBe(200);
    expect(await paths('promoting the replica manually')).not.toContain('runbooks/failover.md');
  });

  it('keeps tenants apart: another tenant retrieves none of these chunks', async () => {
    await createUser(db, { email: 'other@globex.test', tenant: 'globex', roles: ['viewer'] });
    const other = (await client().call('POST', '/api/auth/token', { body: { email: 'other@globex.test', password: 'correct horse battery staple' } })).body.token;
    const r = await retrieve({ query: 'When is a new signing key published in the JWKS?' }, other);
    expect(r).toMatchObject({ status: 200, body: { data: [], meta: { total_candidates: 0 } } });
  });
});
