import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents and their chunks. A chunk's full-text vector is generated from its document title
 * (weight A), heading path (B) and text (D) under the document's text-search configuration, so
 * each language is stemmed by its own rules; one GIN index serves every language.
 */
export class KbDocuments1763950000000 implements MigrationInterface {
  name = 'KbDocuments1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_documents (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        project_key text NOT NULL,
        source_path text NOT NULL,
        title text NOT NULL,
        slug text NOT NULL,
        mime_type text NOT NULL,
        source_type text NOT NULL,
        storage_key text NOT NULL,
        language regconfig NOT NULL DEFAULT 'simple',
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'indexed', 'failed')),
        error text,
        pending_hash text,
        content_hash text,
        chunk_count integer NOT NULL DEFAULT 0,
        indexed_at timestamptz,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, project_key, source_path)
      )`);
    await q.query('CREATE INDEX kb_documents_slug_idx ON kb_documents (tenant_id, project_key, slug)');
    await q.query('CREATE INDEX kb_documents_title_idx ON kb_documents (tenant_id, lower(title))');

    await q.query(`
      CREATE TABLE kb_chunks (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        document_id bigint NOT NULL REFERENCES kb_documents(id) ON DELETE CASCADE,
        ord integer NOT NULL,
        heading_path text,
        text text NOT NULL,
        chunk_hash text NOT NULL,
        language regconfig NOT NULL,
        doc_title text NOT NULL,
        wikilinks text[] NOT NULL DEFAULT '{}',
        tsv tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector(language, doc_title), 'A') ||
          setweight(to_tsvector(language, coalesce(heading_path, '')), 'B') ||
          setweight(to_tsvector(language, text), 'D')
        ) STORED,
        UNIQUE (document_id, ord)
      )`);
    await q.query('CREATE INDEX kb_chunks_tsv_idx ON kb_chunks USING gin (tsv)');
    await q.query('CREATE INDEX kb_chunks_tenant_idx ON kb_chunks (tenant_id, document_id)');

    await q.query(`
      CREATE TABLE kb_document_links (
        tenant_id text NOT NULL,
        document_id bigint NOT NULL REFERENCES kb_documents(id) ON DELETE CASCADE,
        target_slug text NOT NULL,
        PRIMARY KEY (document_id, target_slug)
      )`);
    await q.query('CREATE INDEX kb_document_links_target_idx ON kb_document_links (tenant_id, target_slug)');

    await q.query(`
      CREATE TABLE kb_chat_logs (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        user_id bigint,
        question text NOT NULL,
        answer text NOT NULL,
        citations jsonb NOT NULL,
        confidence integer NOT NULL,
        refusal_reason text,
        provider text,
        model text,
        latency_ms integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_chat_logs_tenant_idx ON kb_chat_logs (tenant_id, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['kb_chat_logs', 'kb_document_links', 'kb_chunks', 'kb_documents']) await q.query(`DROP TABLE ${t}`);
  }
}
