import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { containsPattern, PageWindow } from '../../admin/pagination';

export interface SynonymSetRow {
  id: number;
  project_key: string | null;
  terms: string[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id::int AS id, project_key, terms, created_at, updated_at';

/** kb_synonym_sets; every statement takes the tenant. */
@Injectable()
export class SynonymsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string, f: { project?: string; search?: string }, w: PageWindow): Promise<{ rows: SynonymSetRow[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR project_key = $2) AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM unnest(terms) t WHERE t ILIKE $3))`;
    const params = [tenantId, f.project ?? null, containsPattern(f.search)];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_synonym_sets WHERE ${where}`, params);
    const rows = await this.db.query(`SELECT ${COLUMNS} FROM kb_synonym_sets WHERE ${where} ORDER BY id LIMIT $4 OFFSET $5`, [...params, w.perPage, w.offset]);
    return { rows, total };
  }

  async count(tenantId: string): Promise<number> {
    const [{ n }] = await this.db.query('SELECT count(*)::int AS n FROM kb_synonym_sets WHERE tenant_id = $1', [tenantId]);
    return n;
  }

  /** Every set of the tenant in id order, as retrieval expands question words with them (retrieval/synonyms.ts). */
  setsOf(tenantId: string): Promise<Array<Pick<SynonymSetRow, 'project_key' | 'terms'>>> {
    return this.db.query('SELECT project_key, terms FROM kb_synonym_sets WHERE tenant_id = $1 ORDER BY id', [tenantId]);
  }

  async find(tenantId: string, id: string): Promise<SynonymSetRow | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_synonym_sets WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }

  async create(tenantId: string, projectKey: string | null, terms: string[]): Promise<SynonymSetRow> {
    const [row] = await this.db.query(`INSERT INTO kb_synonym_sets (tenant_id, project_key, terms) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`, [tenantId, projectKey, terms]);
    return row;
  }

  async update(tenantId: string, id: string, projectKey: string | null, terms: string[]): Promise<SynonymSetRow | null> {
    const [row] = await queryRows<SynonymSetRow>(
      this.db,
      `UPDATE kb_synonym_sets SET project_key = $3, terms = $4, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, projectKey, terms],
    );
    return row ?? null;
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    return (await queryRows(this.db, 'DELETE FROM kb_synonym_sets WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id])).length > 0;
  }
}
