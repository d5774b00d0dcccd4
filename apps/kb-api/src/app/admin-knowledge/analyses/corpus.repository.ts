import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface TermCount {
  term: string;
  documents: number;
  occurrences: number;
}

export interface HeadingCount {
  key: string;
  label: string;
  document_ids: number[];
}

/** Text of one document read for term counting; beyond this a tsvector may exceed its size limit. */
const DOCUMENT_TEXT_LIMIT = 500_000;

/**
 * Each indexed document's words, unstemmed ('simple' configuration, so terms read as written),
 * for the whole tenant or one project.
 */
const DOCUMENT_WORDS = `docs AS (
  SELECT c.document_id, to_tsvector('simple', left(string_agg(c.text, ' ' ORDER BY c.ord), ${DOCUMENT_TEXT_LIMIT})) AS tv
    FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
   WHERE c.tenant_id = $1 AND d.tenant_id = $1 AND d.deleted_at IS NULL AND d.status = 'indexed' AND ($2::text IS NULL OR d.project_key = $2)
   GROUP BY c.document_id)`;

/** Term and heading statistics over a tenant's (or a project's) indexed text; every statement takes the tenant. */
@Injectable()
export class CorpusRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async documentCount(tenantId: string, project: string | null): Promise<number> {
    const [{ n }] = await this.db.query(
      `SELECT count(*)::int AS n FROM kb_documents WHERE tenant_id = $1 AND deleted_at IS NULL AND status = 'indexed' AND ($2::text IS NULL OR project_key = $2)`,
      [tenantId, project],
    );
    return n;
  }

  /** Words by the number of documents containing them, then by occurrences. */
  async topTerms(tenantId: string, project: string | null, limit: number, minLength = 3): Promise<TermCount[]> {
    return this.db.query(
      `WITH ${DOCUMENT_WORDS}
       SELECT u.lexeme AS term, count(*)::int AS documents, sum(coalesce(array_length(u.positions, 1), 1))::int AS occurrences
         FROM docs, unnest(docs.tv) AS u
        WHERE length(u.lexeme) >= $4 AND u.lexeme !~ '^[0-9_.-]+$'
        GROUP BY u.lexeme
        ORDER BY documents DESC, occurrences DESC, term
        LIMIT $3`,
      [tenantId, project, limit, minLength],
    );
  }

  /** For the given words, how often each document uses them. */
  async termDocuments(tenantId: string, project: string | null, terms: string[]): Promise<Array<{ document_id: number; term: string; occurrences: number }>> {
    if (!terms.length) return [];
    return this.db.query(
      `WITH ${DOCUMENT_WORDS}
       SELECT docs.document_id::int AS document_id, u.lexeme AS term, coalesce(array_length(u.positions, 1), 1)::int AS occurrences
         FROM docs, unnest(docs.tv) AS u WHERE u.lexeme = ANY($3::text[])`,
      [tenantId, project, terms],
    );
  }

  /** Section headings (the last part of a chunk's heading path) shared by at least `minDocuments` documents. */
  async sharedHeadings(tenantId: string, project: string | null, minDocuments: number, limit: number): Promise<HeadingCount[]> {
    return this.db.query(
      `SELECT h.key, min(h.label) AS label, array_agg(DISTINCT h.document_id ORDER BY h.document_id) AS document_ids
         FROM (SELECT c.document_id::int AS document_id, btrim(regexp_replace(c.heading_path, '^.* > ', '')) AS label,
                      lower(btrim(regexp_replace(c.heading_path, '^.* > ', ''))) AS key
                 FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
                WHERE c.tenant_id = $1 AND d.tenant_id = $1 AND d.deleted_at IS NULL AND d.status = 'indexed'
                  AND ($2::text IS NULL OR d.project_key = $2) AND c.heading_path IS NOT NULL) h
        WHERE h.key <> ''
        GROUP BY h.key HAVING count(DISTINCT h.document_id) >= $3
        ORDER BY count(DISTINCT h.document_id) DESC, h.key LIMIT $4`,
      [tenantId, project, minDocuments, limit],
    );
  }

  /** Documents of a project that link nowhere and that nothing links to. */
  async orphans(tenantId: string, project: string, limit: number): Promise<{ count: number; documents: Array<{ id: number; source_path: string; title: string }> }> {
    const where = `d.tenant_id = $1 AND d.project_key = $2 AND d.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM kb_document_links l WHERE l.document_id = d.id)
      AND NOT EXISTS (SELECT 1 FROM kb_document_links l JOIN kb_documents s ON s.id = l.document_id
                       WHERE l.tenant_id = $1 AND l.target_slug = d.slug AND s.deleted_at IS NULL AND s.id <> d.id)`;
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count FROM kb_documents d WHERE ${where}`, [tenantId, project]);
    const documents = await this.db.query(`SELECT d.id::int AS id, d.source_path, d.title FROM kb_documents d WHERE ${where} ORDER BY d.source_path LIMIT $3`, [tenantId, project, limit]);
    return { count, documents };
  }
}
