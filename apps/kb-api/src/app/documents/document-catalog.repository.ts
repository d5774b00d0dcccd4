import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

/** A document's canonical fields, read from the metadata the promotion pipeline writes. */
const CANONICAL = `d.metadata->>'canonical_type' AS canonical_type, d.metadata->>'canonical_status' AS canonical_status,
  (d.metadata->>'canonical_type' IS NOT NULL) AS is_canonical`;
const RETRIEVAL_PRIORITY = `CASE WHEN d.metadata->>'retrieval_priority' ~ '^[0-9]{1,3}$' THEN (d.metadata->>'retrieval_priority')::int ELSE 50 END`;

/** `100%_done` → `100\%\_done`: the text is matched literally inside a LIKE pattern. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface DocumentHit {
  id: number;
  project_key: string;
  title: string;
  source_path: string;
  source_type: string;
  canonical_type: string | null;
}

export interface DocumentPreviewRow {
  document_id: number;
  title: string;
  source_path: string;
  slug: string;
  project_key: string;
  source_type: string;
  canonical_type: string | null;
  canonical_status: string | null;
  is_canonical: boolean;
  content: string;
}

export interface WikilinkTargetRow {
  document_id: number;
  title: string;
  source_path: string;
  canonical_type: string | null;
  canonical_status: string | null;
  is_canonical: boolean;
  first_chunk: string | null;
}

export interface RelatedRow {
  slug: string;
  title: string | null;
  direction: 'outgoing' | 'incoming';
}

/**
 * Reads over documents, their chunks, links and the tenant's collections. Every statement takes
 * the tenant; a soft-deleted document is invisible to all of them.
 */
@Injectable()
export class DocumentCatalogRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Title or path contains the text (case-insensitive); best first: exact title, title prefix,
   * title contains, path only; then canonical, retrieval priority, most recently indexed, title, id.
   * Archived canonical documents and documents never indexed are left out.
   */
  async search(
    tenantId: string,
    text: string,
    projectKeys: string[],
    limit: number,
  ): Promise<DocumentHit[]> {
    const params: unknown[] = [tenantId, text, escapeLike(text)];
    const projectFilter = projectKeys.length
      ? `AND d.project_key = ANY($${params.push(projectKeys)}::text[])`
      : '';
    const rows = await queryRows<DocumentHit>(
      this.db,
      `SELECT d.id, d.project_key, d.title, d.source_path, d.source_type, d.metadata->>'canonical_type' AS canonical_type
         FROM kb_documents d
        WHERE d.tenant_id = $1 AND d.deleted_at IS NULL AND d.indexed_at IS NOT NULL
          AND d.metadata->>'canonical_status' IS DISTINCT FROM 'archived'
          AND (lower(d.title) LIKE '%' || lower($3) || '%' ESCAPE '\\' OR lower(d.source_path) LIKE '%' || lower($3) || '%' ESCAPE '\\')
          ${projectFilter}
        ORDER BY CASE
                   WHEN lower(d.title) = lower($2) THEN 0
                   WHEN lower(d.title) LIKE lower($3) || '%' ESCAPE '\\' THEN 1
                   WHEN lower(d.title) LIKE '%' || lower($3) || '%' ESCAPE '\\' THEN 2
                   ELSE 3
                 END,
                 (d.metadata->>'canonical_type' IS NOT NULL) DESC, ${RETRIEVAL_PRIORITY} DESC, d.indexed_at DESC NULLS LAST, d.title, d.id
        LIMIT ${Number(limit)}`,
      params,
    );
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** The document with its chunks' text in order, joined by a blank line ("" without chunks). */
  async preview(tenantId: string, id: string): Promise<DocumentPreviewRow | null> {
    const [row] = await queryRows<DocumentPreviewRow>(
      this.db,
      `SELECT d.id AS document_id, d.title, d.source_path, d.slug, d.project_key, d.source_type, ${CANONICAL},
              coalesce((SELECT string_agg(c.text, E'\\n\\n' ORDER BY c.ord) FROM kb_chunks c WHERE c.document_id = d.id AND c.tenant_id = $1), '') AS content
         FROM kb_documents d
        WHERE d.tenant_id = $1 AND d.id = $2 AND d.deleted_at IS NULL`,
      [tenantId, id],
    );
    return row ? { ...row, document_id: Number(row.document_id) } : null;
  }

  /** The document a `[[slug]]` in a project points at: canonical first, then the most recently indexed. */
  async wikilinkTarget(
    tenantId: string,
    projectKey: string,
    slug: string,
  ): Promise<WikilinkTargetRow | null> {
    const [row] = await queryRows<WikilinkTargetRow>(
      this.db,
      `SELECT d.id AS document_id, d.title, d.source_path, ${CANONICAL},
              (SELECT c.text FROM kb_chunks c WHERE c.document_id = d.id AND c.tenant_id = $1 ORDER BY c.ord LIMIT 1) AS first_chunk
         FROM kb_documents d
        WHERE d.tenant_id = $1 AND d.project_key = $2 AND d.slug = $3 AND d.deleted_at IS NULL
        ORDER BY (d.metadata->>'canonical_type' IS NOT NULL) DESC, d.indexed_at DESC NULLS LAST, d.id
        LIMIT 1`,
      [tenantId, projectKey, slug],
    );
    return row ? { ...row, document_id: Number(row.document_id) } : null;
  }

  /**
   * One hop over the link graph from the documents with these slugs: the slugs they link to
   * (titled when a live document in the same project has that slug) and the documents linking to
   * them. The seeds themselves are not their own neighbours.
   */
  async related(
    tenantId: string,
    projectKey: string | undefined,
    slugs: string[],
    limit: number,
  ): Promise<RelatedRow[]> {
    const params: unknown[] = [tenantId, slugs];
    const inProject =
      projectKey === undefined ? '' : `AND s.project_key = $${params.push(projectKey)}`;
    return queryRows<RelatedRow>(
      this.db,
      `WITH neighbours AS (
         SELECT l.target_slug AS slug, 'outgoing' AS direction,
                (SELECT t.title FROM kb_documents t
                  WHERE t.tenant_id = $1 AND t.project_key = s.project_key AND t.slug = l.target_slug AND t.deleted_at IS NULL
                  ORDER BY (t.metadata->>'canonical_type' IS NOT NULL) DESC, t.id LIMIT 1) AS title
           FROM kb_documents s JOIN kb_document_links l ON l.document_id = s.id AND l.tenant_id = $1
          WHERE s.tenant_id = $1 AND s.deleted_at IS NULL AND s.slug = ANY($2::text[]) ${inProject}
         UNION ALL
         SELECT s.slug, 'incoming', s.title
           FROM kb_document_links l JOIN kb_documents s ON s.id = l.document_id AND s.tenant_id = $1
          WHERE l.tenant_id = $1 AND l.target_slug = ANY($2::text[]) AND s.deleted_at IS NULL ${inProject}
       )
       SELECT DISTINCT ON (direction, slug) slug, title, direction
         FROM neighbours
        WHERE NOT (slug = ANY($2::text[]))
        ORDER BY direction DESC, slug, title NULLS LAST
        LIMIT ${Number(limit)}`,
      params,
    );
  }

  async collections(tenantId: string): Promise<Array<{ id: number; name: string }>> {
    const rows = await queryRows<{ id: string; name: string }>(
      this.db,
      'SELECT id, name FROM kb_collections WHERE tenant_id = $1 ORDER BY name, id',
      [tenantId],
    );
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  }
}
