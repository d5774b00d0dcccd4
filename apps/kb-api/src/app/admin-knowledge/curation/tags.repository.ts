import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { containsPattern, PageWindow } from '../../admin/pagination';

const TAGGED = `tenant_id = $1 AND deleted_at IS NULL AND jsonb_typeof(metadata->'tags') = 'array' AND metadata->'tags' @> jsonb_build_array($2::text)`;

/** Tags are the strings of a document's metadata.tags (what the chat's tag filter reads); every statement takes the tenant. */
@Injectable()
export class TagsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string, search: string | undefined, w: PageWindow): Promise<{ rows: Array<{ tag: string; documents: number }>; total: number }> {
    const tags = `SELECT t.tag, count(DISTINCT d.id)::int AS documents
      FROM kb_documents d, jsonb_array_elements_text(CASE WHEN jsonb_typeof(d.metadata->'tags') = 'array' THEN d.metadata->'tags' ELSE '[]'::jsonb END) AS t(tag)
      WHERE d.tenant_id = $1 AND d.deleted_at IS NULL AND ($2::text IS NULL OR t.tag ILIKE $2) GROUP BY t.tag`;
    const params = [tenantId, containsPattern(search)];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM (${tags}) x`, params);
    const rows = await this.db.query(`${tags} ORDER BY documents DESC, t.tag LIMIT $3 OFFSET $4`, [...params, w.perPage, w.offset]);
    return { rows, total };
  }

  async count(tenantId: string, tag: string): Promise<number> {
    const [{ n }] = await this.db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE ${TAGGED}`, [tenantId, tag]);
    return n;
  }

  /** Renames a tag on every document carrying it; a document that already has the new name keeps one. */
  async rename(tenantId: string, from: string, to: string): Promise<number> {
    const rows = await queryRows(
      this.db,
      `UPDATE kb_documents SET metadata = jsonb_set(metadata, '{tags}', (
              SELECT coalesce(jsonb_agg(y.t ORDER BY y.i), '[]'::jsonb) FROM (
                SELECT CASE WHEN x.e = $2 THEN $3 ELSE x.e END AS t, min(x.i) AS i
                  FROM jsonb_array_elements_text(metadata->'tags') WITH ORDINALITY AS x(e, i) GROUP BY 1) y)), updated_at = now()
        WHERE ${TAGGED} RETURNING id`,
      [tenantId, from, to],
    );
    return rows.length;
  }

  async remove(tenantId: string, tag: string): Promise<number> {
    const rows = await queryRows(
      this.db,
      `UPDATE kb_documents SET metadata = jsonb_set(metadata, '{tags}', (
              SELECT coalesce(jsonb_agg(x.e ORDER BY x.i), '[]'::jsonb) FROM jsonb_array_elements(metadata->'tags') WITH ORDINALITY AS x(e, i) WHERE x.e <> to_jsonb($2::text))),
              updated_at = now()
        WHERE ${TAGGED} RETURNING id`,
      [tenantId, tag],
    );
    return rows.length;
  }
}
