import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { containsPattern, PageWindow } from '../../admin/pagination';

export interface FolderCount {
  project_key: string;
  folder: string;
  documents: number;
  chunks: number;
}

export interface TreeDocument {
  id: number;
  project_key: string;
  source_path: string;
  title: string;
  status: string;
  chunk_count: number;
}

export interface AdminDocumentRow {
  id: number;
  project_key: string;
  source_path: string;
  title: string;
  slug: string;
  status: string;
  source_type: string;
  mime_type: string;
  chunk_count: number;
  tags: string[];
  error: string | null;
  indexed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DocumentFilter {
  project?: string;
  status?: string;
  source_type?: string;
  tag?: string;
  search?: string;
}

export interface Finding<T> {
  count: number;
  samples: T[];
}

const SAMPLES = 10;
const DOCUMENT_COLUMNS = `d.id::int AS id, d.project_key, d.source_path, d.title, d.slug, d.status, d.source_type, d.mime_type, d.chunk_count,
  CASE WHEN jsonb_typeof(d.metadata->'tags') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(d.metadata->'tags')) ELSE '{}'::text[] END AS tags,
  d.error, d.indexed_at, d.created_at, d.updated_at`;
const SAMPLE_COLUMNS = 'd.id::int AS id, d.project_key, d.source_path, d.title, d.status, d.updated_at';

/**
 * The admin's reads over documents, chunks and links; every statement takes the tenant. Stuck and
 * stale are measured from the injected Clock's time, passed in, so tests can move it.
 */
@Injectable()
export class InventoryRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async projects(tenantId: string, project?: string): Promise<Array<{ project_key: string; name: string }>> {
    return this.db.query(
      `SELECT project_key, name FROM kb_projects WHERE tenant_id = $1 AND ($2::text IS NULL OR project_key = $2)
       UNION SELECT DISTINCT project_key, project_key FROM kb_documents
        WHERE tenant_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR project_key = $2)
          AND NOT EXISTS (SELECT 1 FROM kb_projects p WHERE p.tenant_id = $1 AND p.project_key = kb_documents.project_key)
       ORDER BY project_key`,
      [tenantId, project ?? null],
    );
  }

  /** Documents and chunks per (project, direct folder of the source path); '' is the project root. */
  async folderCounts(tenantId: string, project?: string): Promise<FolderCount[]> {
    return this.db.query(
      `SELECT project_key, CASE WHEN strpos(source_path, '/') > 0 THEN regexp_replace(source_path, '/[^/]*$', '') ELSE '' END AS folder,
              count(*)::int AS documents, coalesce(sum(chunk_count), 0)::int AS chunks
         FROM kb_documents WHERE tenant_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR project_key = $2)
        GROUP BY 1, 2`,
      [tenantId, project ?? null],
    );
  }

  async treeDocuments(tenantId: string, project: string | undefined, limit: number): Promise<TreeDocument[]> {
    return this.db.query(
      `SELECT id::int AS id, project_key, source_path, title, status, chunk_count FROM kb_documents
        WHERE tenant_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR project_key = $2)
        ORDER BY project_key, source_path LIMIT $3`,
      [tenantId, project ?? null, limit],
    );
  }

  async documents(tenantId: string, f: DocumentFilter, w: PageWindow): Promise<{ rows: AdminDocumentRow[]; total: number }> {
    const params = [tenantId, f.project ?? null, f.status ?? null, f.source_type ?? null, f.tag === undefined ? null : JSON.stringify([f.tag]), containsPattern(f.search)];
    const where = `d.tenant_id = $1 AND d.deleted_at IS NULL AND ($2::text IS NULL OR d.project_key = $2) AND ($3::text IS NULL OR d.status = $3)
      AND ($4::text IS NULL OR d.source_type = $4) AND ($5::jsonb IS NULL OR d.metadata->'tags' @> $5::jsonb)
      AND ($6::text IS NULL OR d.title ILIKE $6 OR d.source_path ILIKE $6)`;
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_documents d WHERE ${where}`, params);
    const rows = await this.db.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM kb_documents d WHERE ${where} ORDER BY d.project_key, d.source_path, d.id LIMIT $7 OFFSET $8`,
      [...params, w.perPage, w.offset],
    );
    return { rows, total };
  }

  async document(tenantId: string, id: string): Promise<(AdminDocumentRow & { metadata: Record<string, unknown>; content_hash: string | null; language: string }) | null> {
    const [row] = await this.db.query(
      `SELECT ${DOCUMENT_COLUMNS}, d.metadata, d.content_hash, d.language::text AS language FROM kb_documents d WHERE d.tenant_id = $1 AND d.id = $2 AND d.deleted_at IS NULL`,
      [tenantId, id],
    );
    return row ?? null;
  }

  /** With the ingest screen's verdict per chunk (indirect injection): flagged, the rule, its guardrails audit row. */
  async chunks(tenantId: string, documentId: string, limit: number) {
    return this.db.query(
      `SELECT id::int AS id, ord, heading_path, text, chunk_hash, wikilinks, injection_flagged, injection_rule_id, injection_audit_id::int AS injection_audit_id
         FROM kb_chunks WHERE tenant_id = $1 AND document_id = $2 ORDER BY ord LIMIT $3`,
      [tenantId, documentId, limit],
    );
  }

  /** How many of the document's chunks the ingest screen flagged (all of them, not only the page shown). */
  async flaggedChunkCount(tenantId: string, documentId: string): Promise<number> {
    const [row] = await this.db.query(`SELECT count(*)::int AS n FROM kb_chunks WHERE tenant_id = $1 AND document_id = $2 AND injection_flagged`, [tenantId, documentId]);
    return row.n;
  }

  /** Outgoing wikilinks with the document each resolves to (same project first), and the documents linking here. */
  async links(tenantId: string, doc: { id: number; slug: string; project_key: string }) {
    const outgoing = await this.db.query(
      `SELECT l.target_slug, t.id::int AS document_id, t.title, t.project_key
         FROM kb_document_links l
         LEFT JOIN LATERAL (SELECT x.id, x.title, x.project_key FROM kb_documents x
                             WHERE x.tenant_id = $1 AND x.slug = l.target_slug AND x.deleted_at IS NULL
                             ORDER BY (x.project_key = $3) DESC, x.id LIMIT 1) t ON true
        WHERE l.tenant_id = $1 AND l.document_id = $2 ORDER BY l.target_slug`,
      [tenantId, doc.id, doc.project_key],
    );
    const incoming = await this.db.query(
      `SELECT d.id::int AS document_id, d.title, d.project_key, d.source_path FROM kb_document_links l JOIN kb_documents d ON d.id = l.document_id
        WHERE l.tenant_id = $1 AND l.target_slug = $2 AND d.deleted_at IS NULL AND d.id <> $3 ORDER BY d.project_key, d.source_path LIMIT 200`,
      [tenantId, doc.slug, doc.id],
    );
    return { outgoing: outgoing.map((o: { document_id: number | null }) => ({ ...o, resolved: o.document_id !== null })), incoming };
  }

  /** Points a document at the stored version again so the indexer rebuilds it; its current chunks stay searchable meanwhile. */
  async markForReindex(tenantId: string, id: string, hash: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `UPDATE kb_documents SET pending_hash = $3, content_hash = NULL, error = NULL, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id`,
      [tenantId, id, hash],
    );
    return rows.length > 0;
  }

  /** Where the document's original is stored (kept out of the admin's views). */
  async storageKey(tenantId: string, id: string): Promise<string | null> {
    const [row] = await this.db.query('SELECT storage_key FROM kb_documents WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [tenantId, id]);
    return row?.storage_key ?? null;
  }

  // The health findings: each a count and a few samples.

  async withoutChunks(tenantId: string): Promise<Finding<unknown>> {
    return this.finding(tenantId, `d.status = 'indexed' AND NOT EXISTS (SELECT 1 FROM kb_chunks c WHERE c.document_id = d.id)`, []);
  }

  async failed(tenantId: string): Promise<Finding<unknown>> {
    return this.finding(tenantId, `d.status = 'failed'`, [], ', d.error');
  }

  async stuck(tenantId: string, minutes: number): Promise<Finding<unknown>> {
    return this.finding(tenantId, `d.status = 'pending' AND d.updated_at < $3::timestamptz - make_interval(mins => $2)`, [minutes, this.clock.now()]);
  }

  async stale(tenantId: string, days: number): Promise<Finding<unknown>> {
    return this.finding(tenantId, `coalesce(d.indexed_at, d.updated_at) < $3::timestamptz - make_interval(days => $2)`, [days, this.clock.now()], ', d.indexed_at');
  }

  async duplicates(tenantId: string): Promise<Finding<{ content_hash: string; documents: unknown[] }>> {
    const groups = `SELECT content_hash, count(*)::int AS n FROM kb_documents WHERE tenant_id = $1 AND deleted_at IS NULL AND content_hash IS NOT NULL GROUP BY content_hash HAVING count(*) > 1`;
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count FROM (${groups}) g`, [tenantId]);
    const samples = await this.db.query(
      `SELECT g.content_hash, (SELECT json_agg(json_build_object('id', d.id, 'project_key', d.project_key, 'source_path', d.source_path, 'title', d.title) ORDER BY d.id)
                                  FROM kb_documents d WHERE d.tenant_id = $1 AND d.deleted_at IS NULL AND d.content_hash = g.content_hash) AS documents
         FROM (${groups}) g ORDER BY g.n DESC, g.content_hash LIMIT ${SAMPLES}`,
      [tenantId],
    );
    return { count, samples };
  }

  /** Wikilinks whose target slug names no live document of the tenant. */
  async brokenLinks(tenantId: string): Promise<Finding<unknown>> {
    const broken = `FROM kb_document_links l JOIN kb_documents d ON d.id = l.document_id
      WHERE l.tenant_id = $1 AND d.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM kb_documents t WHERE t.tenant_id = $1 AND t.slug = l.target_slug AND t.deleted_at IS NULL)`;
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count ${broken}`, [tenantId]);
    const samples = await this.db.query(
      `SELECT d.id::int AS document_id, d.project_key, d.source_path, l.target_slug ${broken} ORDER BY d.project_key, d.source_path, l.target_slug LIMIT ${SAMPLES}`,
      [tenantId],
    );
    return { count, samples };
  }

  private async finding(tenantId: string, condition: string, params: unknown[], extra = ''): Promise<Finding<unknown>> {
    const where = `d.tenant_id = $1 AND d.deleted_at IS NULL AND ${condition}`;
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count FROM kb_documents d WHERE ${where}`, [tenantId, ...params]);
    const samples = count
      ? await this.db.query(`SELECT ${SAMPLE_COLUMNS}${extra} FROM kb_documents d WHERE ${where} ORDER BY d.updated_at, d.id LIMIT ${SAMPLES}`, [tenantId, ...params])
      : [];
    return { count, samples };
  }
}
