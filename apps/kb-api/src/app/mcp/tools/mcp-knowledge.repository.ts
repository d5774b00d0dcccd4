import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

export interface ChunkView {
  chunk_id: number;
  chunk_order: number;
  heading_path: string | null;
  chunk_text: string;
}

export interface DocumentView {
  id: number;
  project_key: string;
  title: string;
  slug: string;
  source_path: string;
  source_type: string;
  metadata: Record<string, unknown>;
  chunks?: ChunkView[];
}

export interface DocumentSummary {
  id: number;
  project_key: string;
  title: string;
  slug: string;
  source_path: string;
  source_type: string;
  canonical_type: string | null;
  canonical_status: string | null;
  updated_at: Date;
  indexed_at: Date | null;
}

export interface LinkEdge {
  source: string;
  target: string;
}

const SUMMARY = `d.id, d.project_key, d.title, d.slug, d.source_path, d.source_type,
  d.metadata->>'canonical_type' AS canonical_type, d.metadata->>'canonical_status' AS canonical_status, d.updated_at, d.indexed_at`;
const LIVE = 'd.tenant_id = $1 AND d.deleted_at IS NULL';

const summary = (r: DocumentSummary): DocumentSummary => ({ ...r, id: Number(r.id) });

/**
 * The reads the MCP tools need that the documents module does not have: a document with its
 * chunks and metadata, one chunk, recent changes, documents by canonical type, and link edges.
 * Every statement takes the tenant; soft-deleted documents (and their chunks) are invisible.
 */
@Injectable()
export class McpKnowledgeRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async document(tenantId: string, id: number, withChunks: boolean): Promise<DocumentView | null> {
    const [row] = await queryRows<DocumentView>(
      this.db,
      `SELECT d.id, d.project_key, d.title, d.slug, d.source_path, d.source_type, d.metadata FROM kb_documents d WHERE ${LIVE} AND d.id = $2`,
      [tenantId, id],
    );
    if (!row) return null;
    const doc: DocumentView = { ...row, id: Number(row.id) };
    if (withChunks) {
      const chunks = await queryRows<ChunkView>(
        this.db,
        `SELECT c.id AS chunk_id, c.ord AS chunk_order, c.heading_path, c.text AS chunk_text FROM kb_chunks c WHERE c.tenant_id = $1 AND c.document_id = $2 ORDER BY c.ord`,
        [tenantId, id],
      );
      doc.chunks = chunks.map((c) => ({ ...c, chunk_id: Number(c.chunk_id) }));
    }
    return doc;
  }

  async chunk(tenantId: string, id: number) {
    const [row] = await queryRows<ChunkView & { document_id: number; project_key: string; title: string; slug: string; source_path: string }>(
      this.db,
      `SELECT c.id AS chunk_id, c.document_id, d.project_key, d.title, d.slug, d.source_path, c.ord AS chunk_order, c.heading_path, c.text AS chunk_text
         FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
        WHERE ${LIVE} AND c.tenant_id = $1 AND c.id = $2`,
      [tenantId, id],
    );
    return row ? { ...row, chunk_id: Number(row.chunk_id), document_id: Number(row.document_id) } : null;
  }

  /** Most recently changed first (a new version, a re-index or a metadata change). */
  async recent(tenantId: string, projectKey: string | undefined, limit: number): Promise<DocumentSummary[]> {
    const params: unknown[] = [tenantId, limit];
    const project = projectKey === undefined ? '' : `AND d.project_key = $${params.push(projectKey)}`;
    const rows = await queryRows<DocumentSummary>(this.db, `SELECT ${SUMMARY} FROM kb_documents d WHERE ${LIVE} ${project} ORDER BY d.updated_at DESC, d.id DESC LIMIT $2`, params);
    return rows.map(summary);
  }

  /** Canonical documents of one type in a project; `status` null means any status. */
  async byType(tenantId: string, projectKey: string, type: string, status: string | null, limit: number): Promise<DocumentSummary[]> {
    const rows = await queryRows<DocumentSummary>(
      this.db,
      `SELECT ${SUMMARY} FROM kb_documents d
        WHERE ${LIVE} AND d.project_key = $2 AND d.metadata->>'canonical_type' = $3 AND ($4::text IS NULL OR d.metadata->>'canonical_status' = $4)
        ORDER BY d.title, d.id LIMIT $5`,
      [tenantId, projectKey, type, status, limit],
    );
    return rows.map(summary);
  }

  /** Wikilink edges (source slug → target slug) of a project touching any of these slugs, at most `limit`. */
  async edgesTouching(tenantId: string, projectKey: string, slugs: string[], limit: number): Promise<LinkEdge[]> {
    return queryRows<LinkEdge>(
      this.db,
      `SELECT DISTINCT d.slug AS source, l.target_slug AS target
         FROM kb_document_links l JOIN kb_documents d ON d.id = l.document_id
        WHERE ${LIVE} AND l.tenant_id = $1 AND d.project_key = $2 AND (d.slug = ANY($3::text[]) OR l.target_slug = ANY($3::text[]))
        ORDER BY 1, 2 LIMIT $4`,
      [tenantId, projectKey, slugs, limit],
    );
  }

  /** Titles of the live documents with these slugs in a project (canonical first when a slug repeats). */
  async titles(tenantId: string, projectKey: string, slugs: string[]): Promise<Map<string, string>> {
    const rows = await queryRows<{ slug: string; title: string }>(
      this.db,
      `SELECT DISTINCT ON (d.slug) d.slug, d.title FROM kb_documents d
        WHERE ${LIVE} AND d.project_key = $2 AND d.slug = ANY($3::text[])
        ORDER BY d.slug, (d.metadata->>'canonical_type' IS NOT NULL) DESC, d.id`,
      [tenantId, projectKey, slugs],
    );
    return new Map(rows.map((r) => [r.slug, r.title]));
  }
}
