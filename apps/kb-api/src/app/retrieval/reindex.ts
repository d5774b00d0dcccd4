import { DataSource } from 'typeorm';

/** Documents re-analysed per transaction: short transactions, so ingest and chat go on meanwhile. */
const BATCH = 100;

export interface ReindexProgress {
  done: number;
  total: number;
}

/**
 * Re-analyses a tenant's chunks after a change to text analysis (a text-search configuration, its
 * stop words or dictionaries): each chunk's full-text vector is generated again from its title,
 * heading path and text, and its BM25 statistics are taken off before and put back after, in the
 * same transaction, so the tenant's statistics stay exact while it runs. Documents go in id order,
 * BATCH per transaction; `onProgress` hears after each batch.
 */
export async function reindexTenant(db: DataSource, tenantId: string, onProgress: (p: ReindexProgress) => void = () => undefined): Promise<ReindexProgress> {
  const [{ total }] = await db.query(`SELECT count(*)::int AS total FROM kb_documents WHERE tenant_id = $1`, [tenantId]);
  let done = 0;
  let after = '0';
  onProgress({ done, total });
  for (;;) {
    const ids: string[] = await db.transaction(async (m) => {
      const rows: Array<{ id: string; live: boolean }> = await m.query(
        `SELECT d.id::text AS id, d.deleted_at IS NULL AS live FROM kb_documents d WHERE d.tenant_id = $1 AND d.id > $2 ORDER BY d.id LIMIT ${BATCH} FOR UPDATE`,
        [tenantId, after],
      );
      const live = rows.filter((r) => r.live).map((r) => r.id);
      const chunks = `array(SELECT id FROM kb_chunks WHERE tenant_id = $1 AND document_id = ANY($2::bigint[]) ORDER BY id)`;
      // Soft-deleted documents' chunks are not counted (see the statistics migration), so only the live ones move.
      await m.query(`SELECT kb_term_stats_apply(${chunks}, -1)`, [tenantId, live]);
      await m.query(`UPDATE kb_chunks SET language = language WHERE tenant_id = $1 AND document_id = ANY($2::bigint[])`, [tenantId, rows.map((r) => r.id)]);
      await m.query(`SELECT kb_term_stats_apply(${chunks}, 1)`, [tenantId, live]);
      return rows.map((r) => r.id);
    });
    if (ids.length === 0) break;
    after = ids[ids.length - 1];
    done += ids.length;
    onProgress({ done: Math.min(done, total), total: Math.max(total, done) });
  }
  return { done, total: Math.max(total, done) };
}

/** `[##########..........]  512/1024 documents` for a terminal. */
export function progressBar({ done, total }: ReindexProgress, width = 30): string {
  const share = total > 0 ? done / total : 1;
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(String(total).length)}/${total} documents`;
}
