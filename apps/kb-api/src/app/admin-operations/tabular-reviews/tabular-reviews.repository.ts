import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { containsPattern, isRowId, PageWindow } from '../../admin/pagination';

export interface ReviewColumn {
  label: string;
  question: string;
}

export interface Citation {
  chunk_id: number;
  document_id: number;
  source_path: string;
  title: string;
  heading_path: string | null;
  quote: string;
  score: number;
}

export interface ReviewRow {
  id: string;
  name: string;
  project_key: string | null;
  document_ids: string[];
  columns: ReviewColumn[];
  status: 'draft' | 'completed' | 'failed';
  created_by: { id: string; name: string } | null;
  last_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CellRow {
  document_id: string;
  column_index: number;
  status: 'answered' | 'no_answer';
  answer: string | null;
  citation: Citation | null;
  answered_at: Date;
}

export interface ReviewDocument {
  id: string;
  title: string;
  source_path: string;
  project_key: string;
  deleted: boolean;
}

const SELECT = `SELECT r.id, r.name, r.project_key, r.document_ids, r.columns, r.status, r.last_run_at, r.created_at, r.updated_at,
                       CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id::text, 'name', u.name) END AS created_by
                  FROM kb_tabular_reviews r LEFT JOIN kb_users u ON u.id = r.created_by`;

/** Tabular reviews and their cells; every statement takes the tenant. */
@Injectable()
export class TabularReviewsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Which of these ids are live documents of the tenant. */
  async existingDocuments(tenantId: string, ids: number[]): Promise<Set<number>> {
    const rows = await queryRows<{ id: string }>(this.db, 'SELECT id FROM kb_documents WHERE tenant_id = $1 AND id = ANY($2::bigint[]) AND deleted_at IS NULL', [tenantId, ids]);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Up to `limit` live documents of a project, by path. */
  async projectDocuments(tenantId: string, projectKey: string, limit: number): Promise<number[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `SELECT id FROM kb_documents WHERE tenant_id = $1 AND project_key = $2 AND deleted_at IS NULL ORDER BY source_path LIMIT ${limit}`,
      [tenantId, projectKey],
    );
    return rows.map((r) => Number(r.id));
  }

  async create(tenantId: string, r: { name: string; projectKey: string | null; documentIds: number[]; columns: ReviewColumn[]; createdBy: string | null }): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `INSERT INTO kb_tabular_reviews (tenant_id, name, project_key, document_ids, columns, created_by) VALUES ($1, $2, $3, $4::bigint[], $5, $6) RETURNING id`,
      [tenantId, r.name, r.projectKey, r.documentIds, JSON.stringify(r.columns), r.createdBy],
    );
    return row.id;
  }

  async find(tenantId: string, id: string): Promise<ReviewRow | null> {
    if (!isRowId(id)) return null;
    const [row] = await queryRows<ReviewRow>(this.db, `${SELECT} WHERE r.tenant_id = $1 AND r.id = $2`, [tenantId, id]);
    return row ?? null;
  }

  async page(tenantId: string, search: string | undefined, w: PageWindow): Promise<{ rows: ReviewRow[]; total: number }> {
    const where = 'r.tenant_id = $1 AND ($2::text IS NULL OR r.name ILIKE $2)';
    const params = [tenantId, containsPattern(search)];
    const [{ n }] = await queryRows<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM kb_tabular_reviews r WHERE ${where}`, params);
    const rows = await queryRows<ReviewRow>(this.db, `${SELECT} WHERE ${where} ORDER BY r.id DESC LIMIT ${w.perPage} OFFSET ${w.offset}`, params);
    return { rows, total: n };
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    if (!isRowId(id)) return false;
    return (await queryRows(this.db, 'DELETE FROM kb_tabular_reviews WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id])).length > 0;
  }

  /** The review's documents as they are now (a document deleted since is still listed, flagged). */
  async documents(tenantId: string, ids: string[]): Promise<Map<string, ReviewDocument>> {
    const rows = await queryRows<ReviewDocument>(
      this.db,
      'SELECT id, title, source_path, project_key, deleted_at IS NOT NULL AS deleted FROM kb_documents WHERE tenant_id = $1 AND id = ANY($2::bigint[])',
      [tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  async cells(tenantId: string, reviewId: string): Promise<CellRow[]> {
    return queryRows<CellRow>(
      this.db,
      'SELECT document_id, column_index, status, answer, citation, answered_at FROM kb_tabular_review_cells WHERE tenant_id = $1 AND review_id = $2',
      [tenantId, reviewId],
    );
  }

  /** Replaces every cell of the review at once: readers see the previous grid or the new one. */
  async saveRun(tenantId: string, reviewId: string, cells: Array<Omit<CellRow, 'answered_at'>>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM kb_tabular_review_cells WHERE tenant_id = $1 AND review_id = $2', [tenantId, reviewId]);
      if (cells.length) {
        await tx.query(
          `INSERT INTO kb_tabular_review_cells (review_id, tenant_id, document_id, column_index, status, answer, citation)
           SELECT $1, $2, t.document_id, t.column_index, t.status, t.answer, t.citation
             FROM unnest($3::bigint[], $4::int[], $5::text[], $6::text[], $7::jsonb[]) AS t(document_id, column_index, status, answer, citation)`,
          [
            reviewId,
            tenantId,
            cells.map((c) => c.document_id),
            cells.map((c) => c.column_index),
            cells.map((c) => c.status),
            cells.map((c) => c.answer),
            cells.map((c) => (c.citation ? JSON.stringify(c.citation) : null)),
          ],
        );
      }
      await tx.query(`UPDATE kb_tabular_reviews SET status = 'completed', last_run_at = now(), updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, reviewId]);
    });
  }

  async markFailed(tenantId: string, reviewId: string): Promise<void> {
    await this.db.query(`UPDATE kb_tabular_reviews SET status = 'failed', updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, reviewId]);
  }
}
