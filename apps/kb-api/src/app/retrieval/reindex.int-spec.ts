import { DataSource } from 'typeorm';
import { startKb } from '../../../test/kb-test-env';
import { progressBar, ReindexProgress, reindexTenant } from './reindex';
import { ReindexRepository } from './reindex.repository';
import { reindexTask } from './reindex.task';

/** The statistics as the triggers keep them, against a count from scratch over the live chunks. */
async function drift(db: DataSource): Promise<number> {
  const [{ n }] = await db.query(`
    WITH fresh AS (
      SELECT c.tenant_id, c.language, u.lexeme, count(*)::int AS df
        FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL, unnest(c.tsv) u GROUP BY 1, 2, 3)
    SELECT count(*)::int AS n FROM ((SELECT * FROM fresh EXCEPT SELECT * FROM kb_term_stats) UNION ALL (SELECT * FROM kb_term_stats EXCEPT SELECT * FROM fresh)) x`);
  return n;
}

describe('kb:reindex', () => {
  let db: DataSource;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, stop } = await startKb());
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('default', 'default'), ('other', 'Other') ON CONFLICT DO NOTHING`);
    for (const [tenant, count] of [['default', 230], ['other', 3]] as const) {
      for (let i = 0; i < count; i++) {
        const [{ id }] = await db.query(
          `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, language, status)
           VALUES ($1, 'p', $2, $3, $2, 'text/markdown', 'markdown', $2, 'english', 'indexed') RETURNING id`,
          [tenant, `doc-${i}.md`, `Document ${i}`],
        );
        await db.query(
          `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title)
           SELECT $1, $2, o, NULL, $3 || ' part ' || o, md5($3 || o), 'english', $4 FROM generate_series(0, 1) o`,
          [tenant, id, `Backups of database ${i % 7} run nightly; restores are rehearsed`, `Document ${i}`],
        );
      }
    }
    await db.query(`UPDATE kb_documents SET deleted_at = now() WHERE tenant_id = 'default' AND source_path = 'doc-3.md'`);
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  it('rewrites every chunk of the tenant in batches, keeping its BM25 statistics exact, and leaves other tenants alone', async () => {
    const rows = async (tenant: string) => (await db.query(`SELECT id, xmin::text AS x FROM kb_chunks WHERE tenant_id = $1 ORDER BY id`, [tenant])) as Array<{ id: string; x: string }>;
    const before = await rows('default');
    const otherBefore = await rows('other');
    const stats = async (tenant: string) => db.query(`SELECT language::text, lexeme, df FROM kb_term_stats WHERE tenant_id = $1 ORDER BY 1, 2`, [tenant]);
    const defaultStats = await stats('default');
    const otherStats = await stats('other');
    expect(await drift(db)).toBe(0);

    const seen: ReindexProgress[] = [];
    const result = await reindexTenant(new ReindexRepository(db), 'default', (p) => seen.push(p));
    expect(result).toEqual({ done: 230, total: 230 });
    expect(seen.map((p) => p.done)).toEqual([0, 100, 200, 230]);
    expect(seen.every((p) => p.total === 230)).toBe(true);

    const after = await rows('default');
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after.filter((r, i) => r.x === before[i].x)).toEqual([]);
    expect(await rows('other')).toEqual(otherBefore);
    expect(await drift(db)).toBe(0);
    expect(await stats('default')).toEqual(defaultStats);
    expect(await stats('other')).toEqual(otherStats);
    const [{ df }] = await db.query(`SELECT df FROM kb_term_stats WHERE tenant_id = 'default' AND lexeme = 'night'`);
    expect(df).toBe(2 * 229);
  });

  it('runs as a CLI task: a log line per tenth without a terminal, 1 for a missing or unknown tenant', async () => {
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const log = { info: (m: string, f?: Record<string, unknown>) => lines.push([m, f]), error: (m: string, f?: Record<string, unknown>) => lines.push([`error: ${m}`, f]) };
    const notATerminal = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
    expect(await reindexTask.run(['other'], log, notATerminal)).toBe(0);
    expect(lines).toEqual([
      ['reindexing', { tenant: 'other', done: 0, total: 3 }],
      ['reindexing', { tenant: 'other', done: 3, total: 3 }],
      ['tenant reindexed', { tenant: 'other', documents: 3 }],
    ]);
    expect(await reindexTask.run([], log, notATerminal)).toBe(1);
    expect(await reindexTask.run(['nobody'], log, notATerminal)).toBe(1);
    expect(lines.slice(3).map(([m]) => m)).toEqual(['error: kb:reindex needs the tenant id', 'error: no such tenant']);
    expect(await drift(db)).toBe(0);
  });

  it('draws a progress bar', () => {
    expect(progressBar({ done: 512, total: 1024 }, 10)).toBe('[#####.....]  512/1024 documents');
    expect(progressBar({ done: 0, total: 0 }, 4)).toBe('[####] 0/0 documents');
  });
});
