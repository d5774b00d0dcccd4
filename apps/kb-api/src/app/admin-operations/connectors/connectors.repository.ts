import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { containsPattern, isRowId, PageWindow } from '../../admin/pagination';

export type ConnectorKind = 'filesystem' | 'web';
export type ConnectorConfig = { path: string } | { urls: string[] };

export interface ConnectorRow {
  id: string;
  name: string;
  kind: ConnectorKind;
  project_key: string;
  config: ConnectorConfig;
  enabled: boolean;
  created_by: string | null;
  last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ConnectorRunRow {
  id: string;
  connector_id: string;
  status: 'running' | 'succeeded' | 'partial' | 'failed';
  seen: number;
  queued: number;
  skipped_unchanged: number;
  failed: number;
  errors: Array<{ source_path: string; error: string }>;
  document_ids: string[];
  triggered_by: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export type RunCounts = Pick<ConnectorRunRow, 'status' | 'seen' | 'queued' | 'skipped_unchanged' | 'failed' | 'errors' | 'document_ids'>;

const COLUMNS = 'id, name, kind, project_key, config, enabled, created_by, last_synced_at, created_at, updated_at';
const RUN_COLUMNS = 'id, connector_id, status, seen, queued, skipped_unchanged, failed, errors, document_ids, triggered_by, started_at, finished_at';

/** Connectors and their sync runs; every statement takes the tenant. */
@Injectable()
export class ConnectorsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async page(tenantId: string, f: { search?: string; kind?: string }, w: PageWindow): Promise<{ rows: ConnectorRow[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR name ILIKE $2) AND ($3::text IS NULL OR kind = $3)`;
    const params = [tenantId, containsPattern(f.search), f.kind ?? null];
    const [{ n }] = await queryRows<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM kb_connectors WHERE ${where}`, params);
    const rows = await queryRows<ConnectorRow>(this.db, `SELECT ${COLUMNS} FROM kb_connectors WHERE ${where} ORDER BY id DESC LIMIT ${w.perPage} OFFSET ${w.offset}`, params);
    return { rows, total: n };
  }

  async find(tenantId: string, id: string): Promise<ConnectorRow | null> {
    if (!isRowId(id)) return null;
    const [row] = await queryRows<ConnectorRow>(this.db, `SELECT ${COLUMNS} FROM kb_connectors WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }

  async nameTaken(tenantId: string, name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db.query(`SELECT 1 FROM kb_connectors WHERE tenant_id = $1 AND lower(name) = lower($2) AND ($3::bigint IS NULL OR id <> $3)`, [tenantId, name, exceptId ?? null]);
    return !!row;
  }

  async create(tenantId: string, c: { name: string; kind: ConnectorKind; projectKey: string; config: ConnectorConfig; enabled: boolean; createdBy: string | null }): Promise<ConnectorRow> {
    const [row] = await queryRows<ConnectorRow>(
      this.db,
      `INSERT INTO kb_connectors (tenant_id, name, kind, project_key, config, enabled, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [tenantId, c.name, c.kind, c.projectKey, JSON.stringify(c.config), c.enabled, c.createdBy],
    );
    return row;
  }

  async update(tenantId: string, id: string, c: { name: string; projectKey: string; config: ConnectorConfig; enabled: boolean }): Promise<ConnectorRow | null> {
    const [row] = await queryRows<ConnectorRow>(
      this.db,
      `UPDATE kb_connectors SET name = $3, project_key = $4, config = $5, enabled = $6, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, c.name, c.projectKey, JSON.stringify(c.config), c.enabled],
    );
    return row ?? null;
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    if (!isRowId(id)) return false;
    const gone = await queryRows(this.db, 'DELETE FROM kb_connectors WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id]);
    return gone.length > 0;
  }

  /**
   * Opens a run unless one of this connector is still running (a run older than `staleAfterMs`
   * by the injected Clock, counts as crashed and no longer blocks). Null when another sync is under way.
   */
  async startRun(tenantId: string, connectorId: string, userId: string | null, staleAfterMs: number): Promise<ConnectorRunRow | null> {
    const now = this.clock.nowMs();
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM kb_connectors WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenantId, connectorId]);
      const [busy] = await tx.query(
        `SELECT 1 FROM kb_connector_runs WHERE tenant_id = $1 AND connector_id = $2 AND status = 'running' AND started_at > $3::timestamptz`,
        [tenantId, connectorId, new Date(now - staleAfterMs)],
      );
      if (busy) return null;
      const [row] = await queryRows<ConnectorRunRow>(
        tx,
        `INSERT INTO kb_connector_runs (tenant_id, connector_id, triggered_by) VALUES ($1, $2, $3) RETURNING ${RUN_COLUMNS}`,
        [tenantId, connectorId, userId],
      );
      return row;
    });
  }

  async finishRun(tenantId: string, runId: string, connectorId: string, r: RunCounts): Promise<ConnectorRunRow | null> {
    const [row] = await queryRows<ConnectorRunRow>(
      this.db,
      `UPDATE kb_connector_runs SET status = $3, seen = $4, queued = $5, skipped_unchanged = $6, failed = $7, errors = $8, document_ids = $9::bigint[], finished_at = clock_timestamp()
        WHERE tenant_id = $1 AND id = $2 RETURNING ${RUN_COLUMNS}`,
      [tenantId, runId, r.status, r.seen, r.queued, r.skipped_unchanged, r.failed, JSON.stringify(r.errors), r.document_ids],
    );
    if (!row) return null;
    await this.db.query('UPDATE kb_connectors SET last_synced_at = $3 WHERE tenant_id = $1 AND id = $2', [tenantId, connectorId, row.finished_at]);
    return row;
  }

  async runs(tenantId: string, connectorId: string, w: PageWindow): Promise<{ rows: ConnectorRunRow[]; total: number }> {
    const [{ n }] = await queryRows<{ n: number }>(this.db, 'SELECT count(*)::int AS n FROM kb_connector_runs WHERE tenant_id = $1 AND connector_id = $2', [tenantId, connectorId]);
    const rows = await queryRows<ConnectorRunRow>(
      this.db,
      `SELECT ${RUN_COLUMNS} FROM kb_connector_runs WHERE tenant_id = $1 AND connector_id = $2 ORDER BY id DESC LIMIT ${w.perPage} OFFSET ${w.offset}`,
      [tenantId, connectorId],
    );
    return { rows, total: n };
  }

  async lastRuns(tenantId: string, connectorIds: string[]): Promise<Map<string, ConnectorRunRow>> {
    if (!connectorIds.length) return new Map();
    const rows = await queryRows<ConnectorRunRow>(
      this.db,
      `SELECT DISTINCT ON (connector_id) ${RUN_COLUMNS} FROM kb_connector_runs WHERE tenant_id = $1 AND connector_id = ANY($2::bigint[]) ORDER BY connector_id, id DESC`,
      [tenantId, connectorIds],
    );
    return new Map(rows.map((r) => [r.connector_id, r]));
  }

  /** The indexed (or pending) version hashes of documents at these paths, to skip unchanged ones. */
  async currentHashes(tenantId: string, projectKey: string, sourcePaths: string[]): Promise<Map<string, { content_hash: string | null; pending_hash: string | null; status: string }>> {
    const rows = await queryRows<{ source_path: string; content_hash: string | null; pending_hash: string | null; status: string }>(
      this.db,
      `SELECT source_path, content_hash, pending_hash, status FROM kb_documents
        WHERE tenant_id = $1 AND project_key = $2 AND source_path = ANY($3::text[]) AND deleted_at IS NULL`,
      [tenantId, projectKey, sourcePaths],
    );
    return new Map(rows.map((r) => [r.source_path, r]));
  }
}
