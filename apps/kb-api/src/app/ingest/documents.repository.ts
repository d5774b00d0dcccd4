import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource, EntityManager } from 'typeorm';
import { DocumentActor, SYSTEM_ACTOR } from '../documents/document-ownership';
import { Chunk } from './chunker';

export interface DocumentRow {
  id: string;
  tenant_id: string;
  project_key: string;
  source_path: string;
  title: string;
  slug: string;
  mime_type: string;
  source_type: string;
  storage_key: string;
  language: string;
  metadata: Record<string, unknown>;
  status: 'pending' | 'indexed' | 'failed';
  error: string | null;
  pending_hash: string | null;
  content_hash: string | null;
  chunk_count: number;
  indexed_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AcceptedDocument {
  tenantId: string;
  projectKey: string;
  sourcePath: string;
  title: string;
  slug: string;
  mimeType: string;
  sourceType: string;
  storageKey: string;
  hash: string;
  metadata: Record<string, unknown>;
  /** Owns a new (or revived) document; a live one of someone else is updated only with `any`. Default: the platform itself. */
  actor?: DocumentActor;
}

/** The ingest screen's verdict on one chunk (indirect injection). */
export interface ChunkFlag {
  flagged: boolean;
  rule_id: string | null;
  audit_id: number | null;
}

/** Documents and chunks; every statement takes the tenant. */
@Injectable()
export class DocumentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records a submitted version and has `store` write its bytes; a document deleted earlier comes
   * back (owned by the submitter). Returns its id. Throws when the live document is someone else's
   * and the actor may not overwrite it (checked here too, so a document created meanwhile is not
   * taken over).
   *
   * The row is written first, in a transaction that commits only once `store` has succeeded. Until
   * then the transaction holds the row's lock (for a new path, its unique index entry), so a
   * concurrent submission of the same path waits and then meets the committed owner: a submission
   * refused here never reaches `store`, and the stored original is always the version of the row's
   * owner. A failed write rolls the row back.
   */
  async accept(d: AcceptedDocument, store: () => Promise<void>): Promise<string> {
    const actor = d.actor ?? SYSTEM_ACTOR;
    await this.db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ($1, $2, $2) ON CONFLICT DO NOTHING`, [d.tenantId, d.projectKey]);
    return this.db.transaction(async (tx: EntityManager) => {
      const [row] = await queryRows<{ id: string }>(
        tx,
        `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, pending_hash, metadata, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (tenant_id, project_key, source_path) DO UPDATE SET
           title = EXCLUDED.title, mime_type = EXCLUDED.mime_type, source_type = EXCLUDED.source_type, storage_key = EXCLUDED.storage_key,
           pending_hash = EXCLUDED.pending_hash, metadata = EXCLUDED.metadata, deleted_at = NULL, updated_at = now(),
           created_by = CASE WHEN kb_documents.deleted_at IS NOT NULL THEN EXCLUDED.created_by ELSE kb_documents.created_by END,
           status = CASE WHEN kb_documents.content_hash = EXCLUDED.pending_hash AND kb_documents.deleted_at IS NULL THEN kb_documents.status ELSE 'pending' END
         WHERE $12::boolean OR kb_documents.deleted_at IS NOT NULL OR kb_documents.created_by = $11
         RETURNING id`,
        [d.tenantId, d.projectKey, d.sourcePath, d.title, d.slug, d.mimeType, d.sourceType, d.storageKey, d.hash, JSON.stringify(d.metadata), actor.userId, actor.any],
      );
      if (!row) throw new Error('the document belongs to another user');
      await store();
      return row.id;
    });
  }

  async find(tenantId: string, id: string): Promise<DocumentRow | null> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) return null;
    const [row] = await this.db.query('SELECT * FROM kb_documents WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
    return row ?? null;
  }

  /**
   * Replaces a document's chunks and links with a new version in one transaction, under a row
   * lock: readers see the old version or the new one, never a mix; a crash leaves the old one.
   * Returns false when the document changed meanwhile (deleted, or a newer version submitted).
   */
  async replaceVersion(
    tenantId: string,
    id: string,
    version: { hash: string; title: string; language: string; chunks: Chunk[]; flags?: ChunkFlag[] },
  ): Promise<boolean> {
    return this.db.transaction(async (tx: EntityManager) => {
      const [doc] = await queryRows<DocumentRow>(tx, 'SELECT * FROM kb_documents WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenantId, id]);
      if (!doc || doc.deleted_at || doc.pending_hash !== version.hash) return false;
      if (doc.content_hash === version.hash && doc.status === 'indexed') return true;
      await tx.query('DELETE FROM kb_chunks WHERE document_id = $1', [id]);
      await tx.query('DELETE FROM kb_document_links WHERE document_id = $1', [id]);
      const c = version.chunks;
      if (c.length) {
        await tx.query(
          `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title, wikilinks, injection_flagged, injection_rule_id, injection_audit_id)
           SELECT $1, $2, t.ord, t.heading_path, t.text, encode(sha256(convert_to(t.text, 'UTF8')), 'hex'), $3::regconfig, $4, ARRAY(SELECT jsonb_array_elements_text(t.links)),
                  t.flagged, t.rule_id, t.audit_id
             FROM unnest($5::int[], $6::text[], $7::text[], $8::jsonb[], $9::boolean[], $10::text[], $11::bigint[]) AS t(ord, heading_path, text, links, flagged, rule_id, audit_id)`,
          [
            tenantId, id, version.language, version.title, c.map((x) => x.ord), c.map((x) => x.heading_path), c.map((x) => x.text), c.map((x) => JSON.stringify(x.wikilinks)),
            c.map((_, i) => version.flags?.[i]?.flagged ?? false), c.map((_, i) => version.flags?.[i]?.rule_id ?? null), c.map((_, i) => version.flags?.[i]?.audit_id ?? null),
          ],
        );
        const links = [...new Set(c.flatMap((x) => x.wikilinks))];
        if (links.length) {
          await tx.query(`INSERT INTO kb_document_links (tenant_id, document_id, target_slug) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING`, [tenantId, id, links]);
        }
      }
      await tx.query(
        `UPDATE kb_documents SET status = 'indexed', error = NULL, content_hash = $3, title = $4, language = $5::regconfig, chunk_count = $6,
                indexed_at = now(), updated_at = now() WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id, version.hash, version.title, version.language, c.length],
      );
      return true;
    });
  }

  async markFailed(tenantId: string, id: string, hash: string, error: string): Promise<void> {
    await this.db.query(
      `UPDATE kb_documents SET status = 'failed', error = $4, updated_at = now() WHERE tenant_id = $1 AND id = $2 AND pending_hash = $3`,
      [tenantId, id, hash, error.slice(0, 2000)],
    );
  }
}
