import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { PageWindow } from '../../admin/pagination';
import { WorkflowKind } from './workflows.dto';

export interface WorkflowSummary {
  kind: WorkflowKind;
  id: string;
  status: string;
  title: string;
  started_at: Date;
  finished_at: Date | null;
  actor: { id: string; name: string } | null;
}

/**
 * Each flow kind as the same columns, from the tables that record it: promotion approvals, document
 * ingests (each submitted version, pending until the worker indexes it), connector syncs, command runs.
 */
const SOURCES: Record<WorkflowKind, string> = {
  promotion: `SELECT 'promotion' AS kind, a.id::text AS id, a.status, a.title, a.created_at AS started_at, a.decided_at AS finished_at, a.requested_by AS actor_id
                FROM kb_promotion_approvals a WHERE a.tenant_id = $1`,
  ingest: `SELECT 'ingest' AS kind, d.id::text AS id, d.status, d.project_key || '/' || d.source_path AS title, d.created_at AS started_at,
                  CASE WHEN d.status = 'indexed' THEN d.indexed_at WHEN d.status = 'failed' THEN d.updated_at END AS finished_at, NULL::bigint AS actor_id
             FROM kb_documents d WHERE d.tenant_id = $1 AND d.deleted_at IS NULL`,
  connector_sync: `SELECT 'connector_sync' AS kind, r.id::text AS id, r.status, c.name AS title, r.started_at, r.finished_at, r.triggered_by AS actor_id
                     FROM kb_connector_runs r JOIN kb_connectors c ON c.id = r.connector_id WHERE r.tenant_id = $1`,
  command_run: `SELECT 'command_run' AS kind, r.id::text AS id, r.status, r.command AS title, r.started_at, r.finished_at, r.actor_user_id AS actor_id
                  FROM kb_command_runs r WHERE r.tenant_id = $1`,
};

/** The read model over the KB's multi-step flows; every statement takes the tenant. */
@Injectable()
export class WorkflowsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async page(tenantId: string, f: { kind?: WorkflowKind; status?: string; from?: string; to?: string }, w: PageWindow): Promise<{ rows: WorkflowSummary[]; total: number }> {
    const kinds = f.kind ? [f.kind] : (Object.keys(SOURCES) as WorkflowKind[]);
    const union = kinds.map((k) => SOURCES[k]).join(' UNION ALL ');
    const where = `($2::text IS NULL OR w.status = $2) AND ($3::timestamptz IS NULL OR w.started_at >= $3) AND ($4::timestamptz IS NULL OR w.started_at <= $4)`;
    const params = [tenantId, f.status ?? null, f.from ?? null, f.to ?? null];
    const [{ n }] = await queryRows<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM (${union}) w WHERE ${where}`, params);
    const rows = await queryRows<WorkflowSummary>(
      this.db,
      `SELECT w.kind, w.id, w.status, w.title, w.started_at, w.finished_at,
              CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id::text, 'name', u.name) END AS actor
         FROM (${union}) w LEFT JOIN kb_users u ON u.id = w.actor_id
        WHERE ${where} ORDER BY w.started_at DESC, w.kind, w.id DESC LIMIT ${w.perPage} OFFSET ${w.offset}`,
      params,
    );
    return { rows, total: n };
  }

  async one(tenantId: string, kind: WorkflowKind, id: string): Promise<WorkflowSummary | null> {
    const [row] = await queryRows<WorkflowSummary>(
      this.db,
      `SELECT w.kind, w.id, w.status, w.title, w.started_at, w.finished_at,
              CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id::text, 'name', u.name) END AS actor
         FROM (${SOURCES[kind]}) w LEFT JOIN kb_users u ON u.id = w.actor_id WHERE w.id = $2`,
      [tenantId, id],
    );
    return row ?? null;
  }

  promotionAudit(tenantId: string, approvalId: string) {
    return queryRows<{ action: string; actor_label: string | null; actor_user_id: string | null; detail: Record<string, unknown>; created_at: Date }>(
      this.db,
      'SELECT action, actor_label, actor_user_id::text, detail, created_at FROM kb_promotion_audit WHERE tenant_id = $1 AND approval_id = $2 ORDER BY id',
      [tenantId, approvalId],
    );
  }

  async promotionDocument(tenantId: string, approvalId: string) {
    const [row] = await queryRows<{ document_id: string | null; status: string | null; indexed_at: Date | null; error: string | null }>(
      this.db,
      `SELECT a.document_id::text, d.status, d.indexed_at, d.error FROM kb_promotion_approvals a
         LEFT JOIN kb_documents d ON d.tenant_id = a.tenant_id AND d.id = a.document_id
        WHERE a.tenant_id = $1 AND a.id = $2`,
      [tenantId, approvalId],
    );
    return row;
  }

  async document(tenantId: string, id: string) {
    const [row] = await queryRows<{ created_at: Date; updated_at: Date; indexed_at: Date | null; status: string; error: string | null; chunk_count: number; reindex_pending: boolean; connector_type: string | null }>(
      this.db,
      `SELECT created_at, updated_at, indexed_at, status, error, chunk_count, (content_hash IS DISTINCT FROM pending_hash) AS reindex_pending, metadata->>'connector_type' AS connector_type
         FROM kb_documents WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return row;
  }

  async connectorRun(tenantId: string, id: string) {
    const [row] = await queryRows<{ connector_id: string; kind: string; seen: number; queued: number; skipped_unchanged: number; failed: number; errors: unknown[]; indexed: number; pending: number; index_failed: number }>(
      this.db,
      `SELECT r.connector_id::text, c.kind, r.seen, r.queued, r.skipped_unchanged, r.failed, r.errors,
              count(d.id) FILTER (WHERE d.status = 'indexed')::int AS indexed,
              count(d.id) FILTER (WHERE d.status = 'pending')::int AS pending,
              count(d.id) FILTER (WHERE d.status = 'failed')::int AS index_failed
         FROM kb_connector_runs r JOIN kb_connectors c ON c.id = r.connector_id
         LEFT JOIN kb_documents d ON d.tenant_id = r.tenant_id AND d.id = ANY(r.document_ids) AND d.deleted_at IS NULL
        WHERE r.tenant_id = $1 AND r.id = $2 GROUP BY r.id, c.kind`,
      [tenantId, id],
    );
    return row;
  }

  async commandRun(tenantId: string, id: string) {
    const [row] = await queryRows<{ params: Record<string, unknown>; result: Record<string, number>; error: string | null; trigger: string; duration_ms: number | null }>(
      this.db,
      'SELECT params, result, error, trigger, duration_ms FROM kb_command_runs WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return row;
  }
}
