import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A role that may not create extensions (managed servers often reserve it) keeps kb-api lexical
 * instead of failing the deployment; the savepoint keeps the migration's transaction usable.
 */
async function createExtension(q: QueryRunner): Promise<boolean> {
  await q.query('SAVEPOINT kb_vector_extension');
  try {
    await q.query('CREATE EXTENSION vector');
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== '42501') throw e;
    await q.query('ROLLBACK TO SAVEPOINT kb_vector_extension');
    return false;
  }
}

/**
 * Chunk embeddings for vector retrieval, only where the server offers the `vector` extension:
 * elsewhere this is a no-op and retrieval stays lexical (a server that gains pgvector later: see
 * docs/kb-vector-retrieval.md).
 *
 * The column is an untyped `vector`: the dimension belongs to the configured model, not to the
 * schema, so switching models needs no migration (vectors carry their model and are compared only
 * with the same model's). An approximate index needs a fixed dimension; see
 * docs/kb-vector-retrieval.md for the per-model HNSW index an operator adds on a large corpus.
 */
export class KbChunkEmbeddings1764150000000 implements MigrationInterface {
  name = 'KbChunkEmbeddings1764150000000';

  async up(q: QueryRunner): Promise<void> {
    const [ext] = await q.query(`SELECT installed_version FROM pg_available_extensions WHERE name = 'vector'`);
    if (!ext) return;
    if (!ext.installed_version && !(await createExtension(q))) return;
    await q.query(`
      CREATE TABLE kb_chunk_embeddings (
        chunk_id bigint PRIMARY KEY REFERENCES kb_chunks(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        document_id bigint NOT NULL REFERENCES kb_documents(id) ON DELETE CASCADE,
        model text NOT NULL,
        dims integer NOT NULL CHECK (dims > 0),
        embedding vector NOT NULL CHECK (vector_dims(embedding) = dims),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_chunk_embeddings_tenant_model_idx ON kb_chunk_embeddings (tenant_id, model, dims)');
    await q.query('CREATE INDEX kb_chunk_embeddings_document_idx ON kb_chunk_embeddings (document_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    // The extension stays: other schemas on the server may use it.
    await q.query('DROP TABLE IF EXISTS kb_chunk_embeddings');
  }
}
