import { DataSource } from 'typeorm';
import { startKb } from '../../../test/kb-test-env';
import { ChunkSearchRepository } from './chunk-search.repository';
import type { Bm25Params, IndexQueryTerm, LexicalIndex } from './lexical-index';
import { LexicalIndexRepository } from './lexical-index.repository';
import { ChunkGeneration, LexicalIndexes, MIN_RESIDENCY_MS, RELOAD_GAP_MS, RETRY_AFTER_MS } from './lexical-indexes';
import { analysedWords, QueryWord, queryStatsOf, termStatsRowsOf } from './term-stats';
import { TermStatsRepository } from './term-stats.repository';

const GENEROUS = 64 * 1024 * 1024;

const params: Bm25Params = { k1: 1.8, b: 0.75, titleWeight: 2, headingWeight: 1.5, avgLength: 10 };
const english = (lexeme: string): IndexQueryTerm[] => [{ idf: 1, lexemes: [{ language: 'english', lexeme }] }];

describe('LexicalIndexes: in-memory indexes that follow every write to the chunks', () => {
  let db: DataSource;
  let stop: () => Promise<void>;
  let repository: LexicalIndexRepository;

  const generation = (tenant: string): Promise<ChunkGeneration> => repository.generationOf(tenant);
  const liveChunks = async (tenant: string) => Number((await db.query(`SELECT coalesce(sum(chunks), 0)::int AS n FROM kb_chunk_totals WHERE tenant_id = $1`, [tenant]))[0].n);
  const indexOf = async (indexes: LexicalIndexes, tenant: string) => indexes.current(tenant, await generation(tenant), await liveChunks(tenant));
  const idsOf = (index: LexicalIndex | undefined) => [...(index?.chunkIds() ?? [])].sort((a, b) => a - b);
  const chunkIds = async (tenant: string, path: string) =>
    (await db.query(`SELECT c.id::float8 AS id FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id WHERE c.tenant_id = $1 AND d.source_path = $2 ORDER BY 1`, [tenant, path])).map(
      (r: { id: number }) => r.id,
    );
  const addDocument = async (tenant: string, path: string, text: string) => {
    const [{ id }] = await db.query(
      `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, language, status)
       VALUES ($1, 'p', $2, $2, $2, 'text/markdown', 'markdown', $2, 'english', 'indexed') RETURNING id`,
      [tenant, path],
    );
    await db.query(
      `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title)
       SELECT $1, $2, o, NULL, $3 || ' part ' || o, md5($3 || o), 'english', $4 FROM generate_series(0, 1) o`,
      [tenant, id, text, path],
    );
    return id as string;
  };

  beforeAll(async () => {
    ({ db, stop } = await startKb());
    repository = new LexicalIndexRepository(db);
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('default', 'default'), ('other', 'Other') ON CONFLICT DO NOTHING`);
    await addDocument('default', 'backups.md', 'Backups of the database run nightly');
    await addDocument('default', 'restores.md', 'Restores are rehearsed every quarter');
    await addDocument('other', 'secrets.md', 'Backups of the other tenant stay its own');
  }, 60_000);

  afterAll(async () => {
    await stop?.();
  });

  it('counts every change to the live chunks: insert, delete, soft delete, restore, rewrite', async () => {
    const g0 = await generation('default');
    const other0 = await generation('other');
    const id = await addDocument('default', 'counted.md', 'Counted');
    const g1 = await generation('default');
    expect(g1.chunks).toBeGreaterThan(g0.chunks);
    await db.query(`UPDATE kb_documents SET deleted_at = now() WHERE id = $1`, [id]);
    const g2 = await generation('default');
    expect(g2.chunks).toBeGreaterThan(g1.chunks);
    await db.query(`UPDATE kb_documents SET deleted_at = NULL WHERE id = $1`, [id]);
    const g3 = await generation('default');
    expect(g3.chunks).toBeGreaterThan(g2.chunks);
    expect(g3.epoch).toBe(g0.epoch);
    await db.query(`UPDATE kb_chunks SET language = language WHERE document_id = $1 AND tenant_id = 'default'`, [id]);
    const g4 = await generation('default');
    expect(g4.epoch).toBeGreaterThan(g3.epoch);
    await db.query(`DELETE FROM kb_documents WHERE id = $1`, [id]);
    expect((await generation('default')).chunks).toBeGreaterThan(g4.chunks);
    // A document's title changing is no change to the chunks.
    const g5 = await generation('default');
    await db.query(`UPDATE kb_documents SET title = 'Renamed' WHERE tenant_id = 'default' AND source_path = 'backups.md'`);
    expect(await generation('default')).toEqual(g5);
    expect(await generation('other')).toEqual(other0);
  });

  it("holds a tenant's live chunks only, and follows inserts, deletes, soft deletes, restores and rewrites at the next query", async () => {
    let now = 2_000_000;
    const indexes = new LexicalIndexes(repository, GENEROUS, () => now);
    const index = await indexOf(indexes, 'default');
    const expected = [...(await chunkIds('default', 'backups.md')), ...(await chunkIds('default', 'restores.md'))].sort((a, b) => a - b);
    expect(idsOf(index)).toEqual(expected);
    expect(index!.score(english('backup'), params, 10).hits).toHaveLength(2);

    const id = await addDocument('default', 'drills.md', 'Failover drills happen monthly');
    const drills = await chunkIds('default', 'drills.md');
    expect(idsOf(await indexOf(indexes, 'default'))).toEqual([...expected, ...drills].sort((a, b) => a - b));
    expect((await indexOf(indexes, 'default'))!.score(english('drill'), params, 10).hits.map((h) => h.chunkId).sort((a, b) => a - b)).toEqual(drills);

    await db.query(`UPDATE kb_documents SET deleted_at = now() WHERE id = $1`, [id]);
    expect(idsOf(await indexOf(indexes, 'default'))).toEqual(expected);
    await db.query(`UPDATE kb_documents SET deleted_at = NULL WHERE id = $1`, [id]);
    expect(idsOf(await indexOf(indexes, 'default'))).toEqual([...expected, ...drills].sort((a, b) => a - b));

    // A rewrite in place (here: analysed as 'simple', which keeps "drills" unstemmed) reloads the tenant, at most once per
    // RELOAD_GAP_MS (the reindex command rewrites batch after batch); meanwhile the SQL path ranks.
    await db.query(`UPDATE kb_chunks SET language = 'simple' WHERE document_id = $1 AND tenant_id = 'default'`, [id]);
    expect(await indexOf(indexes, 'default')).toBeUndefined();
    now += RELOAD_GAP_MS;
    const rewritten = await indexOf(indexes, 'default');
    expect(rewritten!.score([{ idf: 1, lexemes: [{ language: 'simple', lexeme: 'drills' }] }], params, 10).hits).toHaveLength(2);
    expect(rewritten!.score(english('drill'), params, 10).hits).toHaveLength(0);

    await db.query(`DELETE FROM kb_documents WHERE id = $1`, [id]);
    expect(idsOf(await indexOf(indexes, 'default'))).toEqual(expected);
    expect(indexes.held).toBe(expected.length);
  });

  it('keeps tenants apart and within the budget, and ranks in SQL when a tenant does not fit', async () => {
    expect([await liveChunks('default'), await liveChunks('other')]).toEqual([4, 2]);
    const generous = new LexicalIndexes(repository, GENEROUS);
    const mine = await indexOf(generous, 'default');
    const theirs = await indexOf(generous, 'other');
    expect(idsOf(theirs)).toEqual(await chunkIds('other', 'secrets.md'));
    expect(mine!.score(english('tenant'), params, 10).hits).toHaveLength(0);
    expect(theirs!.score(english('tenant'), params, 10).hits).toHaveLength(2);
    const [mineBytes, theirBytes] = [mine!.bytes, theirs!.bytes];
    expect(generous.heldBytes).toBe(mineBytes + theirBytes);

    // Room for either tenant but not both: the other is dropped to make room once it has been idle long enough.
    let now = 1_000_000;
    const tight = new LexicalIndexes(repository, Math.max(mineBytes, theirBytes) + 1_000, () => now);
    expect(await indexOf(tight, 'default')).toBeDefined();
    expect(await indexOf(tight, 'other')).toBeUndefined();
    expect(tight.held).toBe(4);
    now += RETRY_AFTER_MS;
    expect(await indexOf(tight, 'other')).toBeUndefined();
    now += MIN_RESIDENCY_MS;
    expect(idsOf(await indexOf(tight, 'other'))).toEqual(await chunkIds('other', 'secrets.md'));
    expect(tight.held).toBe(2);
    expect(tight.heldBytes).toBeLessThanOrEqual(Math.max(mineBytes, theirBytes) + 1_000);

    expect(await indexOf(new LexicalIndexes(repository, 100), 'default')).toBeUndefined();
    expect(await indexOf(new LexicalIndexes(repository, 0), 'other')).toBeUndefined();
  });

  it('ranks in SQL for a while after a failed load, then tries again', async () => {
    let now = 5_000_000;
    let fail = true;
    const flaky = Object.create(repository) as LexicalIndexRepository;
    flaky.liveChunkIds = (tenant: string) => (fail ? Promise.reject(new Error('connection lost')) : repository.liveChunkIds(tenant));
    const indexes = new LexicalIndexes(flaky, GENEROUS, () => now);
    expect(await indexOf(indexes, 'default')).toBeUndefined();
    fail = false;
    expect(await indexOf(indexes, 'default')).toBeUndefined();
    now += RETRY_AFTER_MS;
    expect(await indexOf(indexes, 'default')).toBeDefined();
  });

  it("loads a tenant once however many queries ask, and does not make a small tenant's query wait behind another load", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: string[] = [];
    const gated = Object.create(repository) as LexicalIndexRepository;
    gated.liveChunkIds = async (tenant: string) => {
      calls.push(tenant);
      if (tenant === 'other') await gate;
      return repository.liveChunkIds(tenant);
    };
    const indexes = new LexicalIndexes(gated, GENEROUS);
    const first = indexOf(indexes, 'other');
    const second = indexOf(indexes, 'other');
    // 'other' is loading (held at the gate): a query of 'default' is ranked in SQL rather than queued behind it.
    expect(await indexOf(indexes, 'default')).toBeUndefined();
    release();
    const answers = await Promise.all([first, second]);
    expect(answers.filter((a) => a !== undefined).length).toBeGreaterThanOrEqual(1);
    expect(calls.filter((t) => t === 'other')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(idsOf(await indexOf(indexes, 'default'))).toEqual(
      [...(await chunkIds('default', 'backups.md')), ...(await chunkIds('default', 'restores.md'))].sort((a, b) => a - b),
    );
  });

  it('prewarms nothing below the size a first query loads itself, and never throws', async () => {
    const indexes = new LexicalIndexes(repository, GENEROUS);
    await indexes.prewarm();
    expect(indexes.held).toBe(0);
    const broken = new LexicalIndexes({ largestTenants: () => Promise.reject(new Error('down')) } as unknown as LexicalIndexRepository, GENEROUS);
    await expect(broken.prewarm()).resolves.toBeUndefined();
  });

  it("gives the database's term statistics from the index: lexemes, document frequencies, totals per language, after removals", async () => {
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('stats', 'Stats') ON CONFLICT DO NOTHING`);
    const add = async (path: string, language: string, texts: string[]) => {
      const [{ id }] = await db.query(
        `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, language, status)
         VALUES ('stats', 'p', $1, $1, $1, 'text/markdown', 'markdown', $1, $2::regconfig, 'indexed') RETURNING id`,
        [path, language],
      );
      await db.query(
        `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title)
         SELECT 'stats', $1, t.o - 1, 'Backups > Nightly', t.text, md5(t.text), $2::regconfig, $3 FROM unnest($4::text[]) WITH ORDINALITY AS t(text, o)`,
        [id, language, path, texts],
      );
      return id as string;
    };
    await add('en.md', 'english', ['Backups of the database run nightly and backups are checked', 'Restores are rehearsed; the database is restored']);
    await add('de.md', 'german', ['Die Datenbank wird jede Nacht gesichert', 'Sicherungen der Datenbanken werden geprüft']);
    await add('plain.md', 'simple', ['database backups database']);
    const gone = await add('gone.md', 'english', ['Backups of a database that will be deleted', 'database database database']);
    const indexes = new LexicalIndexes(repository, GENEROUS);
    expect(await indexOf(indexes, 'stats')).toBeDefined();
    // Removed after loading: the index keeps the postings until compaction and must not count them.
    await db.query(`UPDATE kb_documents SET deleted_at = now() WHERE id = $1`, [gone]);
    const index = await indexOf(indexes, 'stats');
    expect(indexes.loaded('stats')?.index).toBe(index);

    const terms = new TermStatsRepository(db);
    const words: QueryWord[] = ['database', 'backups', 'Datenbank', 'nightly', 'the', 'gesichert', 'missing', 'restores'].map((w, i) => ({ i: i + 1, w }));
    words.push({ i: 2, w: 'restored' });
    const operands = ['database', 'backups', 'datenbank', 'nightly', 'the', 'gesichert', 'missing', 'restores'];
    const analysed = await analysedWords(index!, words, (unknown, languages) => terms.analyse(unknown, languages));
    const fromDatabase = queryStatsOf(await terms.lookup('stats', words), operands);
    const fromIndex = queryStatsOf(termStatsRowsOf(index!, indexes.loaded('stats')!.generation, words, analysed)!, operands);
    const sorted = (stats: typeof fromDatabase) => ({
      ...stats,
      lexemes: [...stats.lexemes].sort((a, b) => a.term - b.term || a.language.localeCompare(b.language) || a.lexeme.localeCompare(b.lexeme)),
      languages: [...stats.languages].sort(),
    });
    expect(sorted(fromIndex)).toEqual(sorted(fromDatabase));
    expect(fromIndex.chunks).toBe(5);
    // "database": both English chunks and the simple one; the deleted document's chunks are not counted.
    expect(fromIndex.terms[0].df).toBe(3);
    expect(fromIndex.languages.sort()).toEqual(['english', 'german', 'simple']);
    // The read-back answers the tenant's change counters with the chunks, and also when no chunk passes.
    const chunkSearch = new ChunkSearchRepository(db);
    const options = { excludeFlagged: false, perDocument: 3, limit: 10 };
    const counters = await generation('stats');
    const live = [...index!.chunkIds()];
    const back = await chunkSearch.inOrder('stats', live, {}, options);
    expect([back.rows.map((r) => r.chunk_id).sort((a, b) => a - b), back.generation]).toEqual([[...live].sort((a, b) => a - b), counters]);
    expect(await chunkSearch.inOrder('stats', [-1], {}, options)).toEqual({ rows: [], passed: 0, capped: 0, generation: counters });
    // Fewer rows than pass: `passed` counts what the filters let through, `capped` what the cap per document then keeps.
    const one = await chunkSearch.inOrder('stats', live, {}, { ...options, limit: 1 });
    expect([one.rows.map((r) => r.chunk_id), one.passed, one.capped]).toEqual([[live[0]], live.length, live.length]);
    const documents = new Set(back.rows.map((r) => r.document_id)).size;
    expect(documents).toBeLessThan(live.length);
    const onePerDocument = await chunkSearch.inOrder('stats', live, {}, { ...options, perDocument: 1, limit: 1 });
    expect([onePerDocument.rows.length, onePerDocument.passed, onePerDocument.capped]).toEqual([1, live.length, documents]);
    expect((await chunkSearch.inOrder('stats', live, { project_keys: ['elsewhere'] }, options)).generation).toEqual(counters);
    // Remembered: a second question with the same words asks Postgres nothing, and gets the same analysis.
    let asked = 0;
    const again = await analysedWords(index!, words, async () => {
      asked++;
      return [];
    });
    expect(asked).toBe(0);
    expect(again).toEqual(analysed);
    // A language the words were not analysed under (its first chunk came later) sends the question to the database.
    await add('fr.md', 'french', ['La base de données est sauvegardée']);
    const refreshed = await indexOf(indexes, 'stats');
    expect(refreshed).toBe(index);
    expect(termStatsRowsOf(index!, indexes.loaded('stats')!.generation, words, analysed)).toBeUndefined();
    expect(termStatsRowsOf(index!, indexes.loaded('stats')!.generation, words, await analysedWords(index!, words, (u, l) => terms.analyse(u, l)))).toBeDefined();
  });
});
