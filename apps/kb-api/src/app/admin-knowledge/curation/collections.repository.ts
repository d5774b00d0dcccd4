import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { containsPattern, PageWindow } from '../../admin/pagination';

export interface CollectionRow {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  criteria: Record<string, unknown>;
  document_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface CollectionFields {
  name?: string;
  slug?: string;
  description?: string | null;
  criteria?: Record<string, unknown>;
}

/** A document belongs to a collection when its metadata.collection_ids holds the id (the chat filter reads it). */
const MEMBER = `coalesce(d.metadata->'collection_ids', '[]'::jsonb) @> jsonb_build_array(c.id)`;
const COLUMNS = `c.id::int AS id, c.name, c.slug, c.description, c.criteria, c.created_at, c.updated_at,
  (SELECT count(*)::int FROM kb_documents d WHERE d.tenant_id = c.tenant_id AND d.deleted_at IS NULL AND ${MEMBER}) AS document_count`;

/** kb_collections and their members; every statement takes the tenant. */
@Injectable()
export class CollectionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string, search: string | undefined, w: PageWindow): Promise<{ rows: CollectionRow[]; total: number }> {
    const where = `c.tenant_id = $1 AND ($2::text IS NULL OR c.name ILIKE $2 OR c.slug ILIKE $2)`;
    const params = [tenantId, containsPattern(search)];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_collections c WHERE ${where}`, params);
    const rows = await this.db.query(`SELECT ${COLUMNS} FROM kb_collections c WHERE ${where} ORDER BY c.name, c.id LIMIT $3 OFFSET $4`, [...params, w.perPage, w.offset]);
    return { rows, total };
  }

  async find(tenantId: string, id: string): Promise<CollectionRow | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_collections c WHERE c.tenant_id = $1 AND c.id = $2`, [tenantId, id]);
    return row ?? null;
  }

  async slugTaken(tenantId: string, slug: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db.query('SELECT 1 FROM kb_collections WHERE tenant_id = $1 AND slug = $2 AND ($3::bigint IS NULL OR id <> $3)', [tenantId, slug, exceptId ?? null]);
    return !!row;
  }

  async create(tenantId: string, f: Required<Pick<CollectionFields, 'name' | 'slug'>> & CollectionFields): Promise<string> {
    const [row] = await this.db.query(
      `INSERT INTO kb_collections (tenant_id, name, slug, description, criteria) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [tenantId, f.name, f.slug, f.description ?? null, JSON.stringify(f.criteria ?? {})],
    );
    return String(row.id);
  }

  async update(tenantId: string, id: string, f: CollectionFields): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `UPDATE kb_collections SET name = coalesce($3, name), slug = coalesce($4, slug),
              description = CASE WHEN $5 THEN $6 ELSE description END, criteria = coalesce($7::jsonb, criteria), updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING id`,
      [tenantId, id, f.name ?? null, f.slug ?? null, f.description !== undefined, f.description ?? null, f.criteria ? JSON.stringify(f.criteria) : null],
    );
    return rows.length > 0;
  }

  /** Deletes the collection and takes its id out of every document, in one transaction. */
  async remove(tenantId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await queryRows(tx, 'DELETE FROM kb_collections WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id]);
      if (!rows.length) return false;
      await this.removeMembers(tx, tenantId, Number(id), null);
      return true;
    });
  }

  /** Adds and removes documents (ids of other tenants or unknown ones are ignored); returns the ids changed. */
  async changeMembers(tenantId: string, id: number, add: number[], remove: number[]): Promise<{ added: number[]; removed: number[] }> {
    return this.db.transaction(async (tx) => {
      const added = add.length
        ? await queryRows<{ id: number }>(
            tx,
            `UPDATE kb_documents SET metadata = jsonb_set(metadata, '{collection_ids}', coalesce(metadata->'collection_ids', '[]'::jsonb) || jsonb_build_array($2::bigint))
              WHERE tenant_id = $1 AND id = ANY($3::bigint[]) AND deleted_at IS NULL
                AND NOT coalesce(metadata->'collection_ids', '[]'::jsonb) @> jsonb_build_array($2::bigint) RETURNING id::int AS id`,
            [tenantId, id, add],
          )
        : [];
      const removed = remove.length ? await this.removeMembers(tx, tenantId, id, remove) : [];
      return { added: added.map((r) => r.id).sort((a, b) => a - b), removed: removed.sort((a, b) => a - b) };
    });
  }

  private async removeMembers(tx: DataSource['manager'], tenantId: string, id: number, only: number[] | null): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      tx,
      `UPDATE kb_documents SET metadata = jsonb_set(metadata, '{collection_ids}',
              (SELECT coalesce(jsonb_agg(e ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements(metadata->'collection_ids') WITH ORDINALITY AS x(e, i) WHERE e <> to_jsonb($2::bigint)))
        WHERE tenant_id = $1 AND coalesce(metadata->'collection_ids', '[]'::jsonb) @> jsonb_build_array($2::bigint)
          AND ($3::bigint[] IS NULL OR id = ANY($3::bigint[])) RETURNING id::int AS id`,
      [tenantId, id, only],
    );
    return rows.map((r) => r.id);
  }
}
