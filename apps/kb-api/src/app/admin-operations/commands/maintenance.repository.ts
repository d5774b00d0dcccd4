import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';

/** Deletes go in slices so a large purge never holds one long lock over a hot table. */
export const PURGE_BATCH = 2000;

// "Now" is the injected Clock's time, passed as a parameter, so tests can move past a window.
const AUTH_EXPIRED = 'tenant_id = $1 AND expires_at < $2::timestamptz';
const DELETED_PAST_GRACE = `tenant_id = $1 AND deleted_at IS NOT NULL AND deleted_at < $3::timestamptz - make_interval(days => $2)`;
const CHAT_LOGS_OLD = `tenant_id = $1 AND created_at < $3::timestamptz - make_interval(days => $2)`;
const NOTIFICATIONS_OLD = `tenant_id = $1 AND created_at < $4::timestamptz - make_interval(days => $2) AND ($3::boolean = false OR read_at IS NOT NULL OR dismissed_at IS NOT NULL)`;
const REINDEXABLE = `tenant_id = $1 AND project_key = $2 AND deleted_at IS NULL AND pending_hash IS NOT NULL`;

/**
 * The rows the maintenance commands count and remove, always one tenant's: expired sign-ins,
 * documents past their restore grace, old chat logs and notifications, and a project's documents
 * to reindex. Each count matches exactly what the delete beside it removes, so a preview reports
 * what a run will do. Injectable in the API; the scheduled CLI run constructs it on its own
 * DataSource.
 */
@Injectable()
export class MaintenanceRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async expiredAuth(tenantId: string) {
    const now = this.clock.now();
    return {
      sessions: await this.count(`kb_sessions WHERE ${AUTH_EXPIRED}`, [tenantId, now]),
      personal_access_tokens: await this.count(`kb_personal_access_tokens WHERE ${AUTH_EXPIRED}`, [tenantId, now]),
    };
  }

  async deleteExpiredAuth(tenantId: string) {
    const now = this.clock.now();
    return {
      sessions: await this.deleteWhere('kb_sessions', AUTH_EXPIRED, [tenantId, now]),
      personal_access_tokens: await this.deleteWhere('kb_personal_access_tokens', AUTH_EXPIRED, [tenantId, now]),
    };
  }

  async documentsPastGrace(tenantId: string, graceDays: number): Promise<{ documents: number; chunks: number }> {
    const [row] = await queryRows<{ documents: number; chunks: number }>(
      this.db,
      `SELECT count(*)::int AS documents, coalesce(sum(chunk_count), 0)::int AS chunks FROM kb_documents WHERE ${DELETED_PAST_GRACE}`,
      [tenantId, graceDays, this.clock.now()],
    );
    return row;
  }

  /** Deletes up to PURGE_BATCH documents past the grace period (chunks cascade); returns what their files were. */
  deleteDocumentsPastGrace(tenantId: string, graceDays: number): Promise<Array<{ storage_key: string; chunk_count: number }>> {
    return queryRows(
      this.db,
      `DELETE FROM kb_documents WHERE id IN (SELECT id FROM kb_documents WHERE ${DELETED_PAST_GRACE} LIMIT ${PURGE_BATCH}) RETURNING storage_key, chunk_count`,
      [tenantId, graceDays, this.clock.now()],
    );
  }

  oldChatLogs(tenantId: string, olderThanDays: number): Promise<number> {
    return this.count(`kb_chat_logs WHERE ${CHAT_LOGS_OLD}`, [tenantId, olderThanDays, this.clock.now()]);
  }

  deleteOldChatLogs(tenantId: string, olderThanDays: number): Promise<number> {
    return this.deleteWhere('kb_chat_logs', CHAT_LOGS_OLD, [tenantId, olderThanDays, this.clock.now()]);
  }

  oldNotifications(tenantId: string, olderThanDays: number, onlyRead: boolean): Promise<number> {
    return this.count(`kb_notifications WHERE ${NOTIFICATIONS_OLD}`, [tenantId, olderThanDays, onlyRead, this.clock.now()]);
  }

  deleteOldNotifications(tenantId: string, olderThanDays: number, onlyRead: boolean): Promise<number> {
    return this.deleteWhere('kb_notifications', NOTIFICATIONS_OLD, [tenantId, olderThanDays, onlyRead, this.clock.now()]);
  }

  reindexable(tenantId: string, projectKey: string): Promise<number> {
    return this.count(`kb_documents WHERE ${REINDEXABLE}`, [tenantId, projectKey]);
  }

  /**
   * Forgets the indexed hash of every live document of a project, so the indexer redoes the current
   * version instead of answering "unchanged"; the status stays, so retrieval keeps serving the old
   * chunks until the swap. Returns the documents to re-dispatch.
   */
  forgetIndexedHashes(tenantId: string, projectKey: string): Promise<Array<{ id: string; pending_hash: string }>> {
    return queryRows(this.db, `UPDATE kb_documents SET content_hash = NULL WHERE ${REINDEXABLE} RETURNING id, pending_hash`, [tenantId, projectKey]);
  }

  private async count(fromWhere: string, params: unknown[]): Promise<number> {
    const [row] = await queryRows<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM ${fromWhere}`, params);
    return row.n;
  }

  /** `table` rows matching `where` ($1 is the tenant), deleted slice by slice; returns how many went. */
  private async deleteWhere(table: string, where: string, params: unknown[]): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await queryRows<{ n: number }>(
        this.db,
        `WITH gone AS (DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT ${PURGE_BATCH}) RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        params,
      );
      total += row.n;
      if (row.n < PURGE_BATCH) return total;
    }
  }
}
