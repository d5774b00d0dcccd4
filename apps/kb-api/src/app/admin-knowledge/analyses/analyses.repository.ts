import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PageWindow } from '../../admin/pagination';

export interface AnalysisRow {
  id: number;
  project_key: string;
  kind: string;
  result?: Record<string, unknown>;
  created_by: number | null;
  duration_ms: number;
  created_at: Date;
}

const SUMMARY = 'id::int AS id, project_key, kind, created_by::int AS created_by, duration_ms, created_at';

/** kb_analyses; every statement takes the tenant. */
@Injectable()
export class AnalysesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async projectExists(tenantId: string, project: string): Promise<boolean> {
    const [row] = await this.db.query(
      `SELECT 1 FROM kb_projects WHERE tenant_id = $1 AND project_key = $2 UNION ALL SELECT 1 FROM kb_documents WHERE tenant_id = $1 AND project_key = $2 LIMIT 1`,
      [tenantId, project],
    );
    return !!row;
  }

  async save(tenantId: string, a: { project_key: string; kind: string; result: object; created_by: string | null; duration_ms: number }): Promise<AnalysisRow> {
    const [row] = await this.db.query(
      `INSERT INTO kb_analyses (tenant_id, project_key, kind, result, created_by, duration_ms) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SUMMARY}, result`,
      [tenantId, a.project_key, a.kind, JSON.stringify(a.result), a.created_by, a.duration_ms],
    );
    return row;
  }

  async list(tenantId: string, project: string | undefined, w: PageWindow): Promise<{ rows: AnalysisRow[]; total: number }> {
    const where = 'tenant_id = $1 AND ($2::text IS NULL OR project_key = $2)';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_analyses WHERE ${where}`, [tenantId, project ?? null]);
    const rows = await this.db.query(`SELECT ${SUMMARY} FROM kb_analyses WHERE ${where} ORDER BY id DESC LIMIT $3 OFFSET $4`, [tenantId, project ?? null, w.perPage, w.offset]);
    return { rows, total };
  }

  async find(tenantId: string, id: string): Promise<AnalysisRow | null> {
    const [row] = await this.db.query(`SELECT ${SUMMARY}, result FROM kb_analyses WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }
}
