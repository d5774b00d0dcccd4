import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KbApiEnv } from '../../config/env';
import { dataSourceOptions } from '../../data-source';
import { TenantsRepository } from '../tenancy/tenants.repository';

/**
 * A tenant's documents re-analysed in id order: each batch's chunks get their full-text vectors
 * generated again (from title, heading path and text), with their BM25 statistics taken off before
 * and put back after in the same transaction, so the tenant's statistics stay exact throughout.
 */
@Injectable()
export class ReindexRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async documentCount(tenantId: string): Promise<number> {
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_documents WHERE tenant_id = $1`, [tenantId]);
    return total;
  }

  /** Re-analyses the next `batch` documents of the tenant after id `after` in one transaction; answers their ids, in order. */
  reanalyseAfter(tenantId: string, after: string, batch: number): Promise<string[]> {
    return this.db.transaction(async (m) => {
      const rows: Array<{ id: string; live: boolean }> = await m.query(
        `SELECT d.id::text AS id, d.deleted_at IS NULL AS live FROM kb_documents d WHERE d.tenant_id = $1 AND d.id > $2 ORDER BY d.id LIMIT ${Math.trunc(batch)} FOR UPDATE`,
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
  }
}

/** The database for the reindex command, outside Nest: its repositories and how to close it. */
export async function openReindexDatabase(env: KbApiEnv): Promise<{ reindex: ReindexRepository; tenants: TenantsRepository; close: () => Promise<void> }> {
  const db = await new DataSource(dataSourceOptions(env)).initialize();
  return { reindex: new ReindexRepository(db), tenants: new TenantsRepository(db), close: () => db.destroy() };
}
