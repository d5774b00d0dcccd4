import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Collections (a document joins one through `metadata.collection_ids`, which the chat filter
 * reads) and per-user chunk feedback. Feedback names the chunk and keeps its document and text
 * hash: chunks are rebuilt on every new version, so the hash is what ties a signal to the same
 * text later; the signal goes away with a hard-deleted document or user.
 */
export class KbCollectionsFeedback1764010000000 implements MigrationInterface {
  name = 'KbCollectionsFeedback1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_collections (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        criteria jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, slug)
      )`);
    await q.query('CREATE INDEX kb_collections_name_idx ON kb_collections (tenant_id, name)');

    await q.query(`
      CREATE TABLE kb_chunk_feedback (
        tenant_id text NOT NULL,
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        chunk_id bigint NOT NULL,
        document_id bigint NOT NULL REFERENCES kb_documents(id) ON DELETE CASCADE,
        chunk_hash text NOT NULL,
        signal text NOT NULL CHECK (signal IN ('should_have_cited', 'not_relevant')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, user_id, chunk_id)
      )`);
    await q.query('CREATE INDEX kb_chunk_feedback_document_idx ON kb_chunk_feedback (document_id)');
    await q.query(
      'CREATE INDEX kb_chunk_feedback_hash_idx ON kb_chunk_feedback (tenant_id, chunk_hash)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE kb_chunk_feedback');
    await q.query('DROP TABLE kb_collections');
  }
}
