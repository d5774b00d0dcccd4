import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-tenant term statistics for BM25: how many live chunks of a tenant hold each lexeme (per
 * text-search configuration, since each language stems its own way), and each tenant's chunk count
 * and token total per configuration (for the average chunk length).
 *
 * Triggers keep them current in the same transaction as the write that changes them, whichever
 * code path writes: chunks inserted or deleted (ingest swaps a version's chunks, a hard delete
 * cascades), a document soft-deleted or brought back. Only chunks of documents that are not
 * soft-deleted count; a chunk deleted together with its document (the cascade) was taken off by
 * the document's own trigger before, while the document row still told whether it counted.
 * Writers of one tenant take a transaction-scoped advisory lock first: concurrent ingest jobs
 * update the same hot lexemes, and one lock order per tenant keeps them from deadlocking.
 */
export class KbBm25TermStats1764225000000 implements MigrationInterface {
  name = 'KbBm25TermStats1764225000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_term_stats (
        tenant_id text NOT NULL,
        language regconfig NOT NULL,
        lexeme text NOT NULL,
        df integer NOT NULL,
        PRIMARY KEY (tenant_id, language, lexeme)
      )`);
    await q.query(`
      CREATE TABLE kb_chunk_totals (
        tenant_id text NOT NULL,
        language regconfig NOT NULL,
        chunks bigint NOT NULL,
        tokens bigint NOT NULL,
        PRIMARY KEY (tenant_id, language)
      )`);
    // Tokens of a chunk: every position of every lexeme (title, heading path and text alike).
    await q.query(`
      CREATE FUNCTION kb_tsv_tokens(tsvector) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
      $$ SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)::bigint FROM unnest($1) u $$`);
    // Adds sign × the given chunks to the statistics (the chunks' documents already checked live).
    await q.query(`
      CREATE FUNCTION kb_term_stats_apply(chunk_ids bigint[], sign integer) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF cardinality(chunk_ids) = 0 THEN RETURN; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('kb_term_stats'), hashtext(t.tenant_id))
           FROM (SELECT DISTINCT c.tenant_id FROM kb_chunks c WHERE c.id = ANY(chunk_ids) ORDER BY 1) t;
        INSERT INTO kb_term_stats AS s (tenant_id, language, lexeme, df)
        SELECT c.tenant_id, c.language, u.lexeme, sign * count(*)
          FROM kb_chunks c, unnest(c.tsv) u
         WHERE c.id = ANY(chunk_ids)
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (tenant_id, language, lexeme) DO UPDATE SET df = s.df + excluded.df;
        INSERT INTO kb_chunk_totals AS s (tenant_id, language, chunks, tokens)
        SELECT c.tenant_id, c.language, sign * count(*), sign * sum(kb_tsv_tokens(c.tsv))
          FROM kb_chunks c
         WHERE c.id = ANY(chunk_ids)
         GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (tenant_id, language) DO UPDATE SET chunks = s.chunks + excluded.chunks, tokens = s.tokens + excluded.tokens;
        IF sign < 0 THEN
          DELETE FROM kb_term_stats s USING (SELECT DISTINCT tenant_id FROM kb_chunks WHERE id = ANY(chunk_ids)) t
           WHERE s.tenant_id = t.tenant_id AND s.df <= 0;
        END IF;
      END $$`);
    // Statement-level: an ingest writes a document's chunks in one statement, so one call per version.
    await q.query(`
      CREATE FUNCTION kb_chunks_stats_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_term_stats_apply(array(SELECT n.id FROM new_rows n JOIN kb_documents d ON d.id = n.document_id WHERE d.deleted_at IS NULL), 1);
        RETURN NULL;
      END $$`);
    // Row-level and BEFORE: the chunk is still there to be read back. In a cascade from its
    // document the document row is already gone, so nothing is taken off twice.
    await q.query(`
      CREATE FUNCTION kb_chunks_stats_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = OLD.document_id AND d.deleted_at IS NULL) THEN
          PERFORM kb_term_stats_apply(ARRAY[OLD.id], -1);
        END IF;
        RETURN OLD;
      END $$`);
    await q.query(`
      CREATE FUNCTION kb_documents_stats_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          IF OLD.deleted_at IS NULL THEN
            PERFORM kb_term_stats_apply(array(SELECT id FROM kb_chunks WHERE document_id = OLD.id), -1);
          END IF;
          RETURN OLD;
        END IF;
        IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
          PERFORM kb_term_stats_apply(array(SELECT id FROM kb_chunks WHERE document_id = NEW.id), -1);
        ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
          PERFORM kb_term_stats_apply(array(SELECT id FROM kb_chunks WHERE document_id = NEW.id), 1);
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER kb_chunks_stats_insert AFTER INSERT ON kb_chunks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kb_chunks_stats_inserted()`);
    await q.query(`CREATE TRIGGER kb_chunks_stats_delete BEFORE DELETE ON kb_chunks FOR EACH ROW EXECUTE FUNCTION kb_chunks_stats_deleting()`);
    await q.query(`CREATE TRIGGER kb_documents_stats_delete BEFORE DELETE ON kb_documents FOR EACH ROW EXECUTE FUNCTION kb_documents_stats_changed()`);
    await q.query(`CREATE TRIGGER kb_documents_stats_soft_delete AFTER UPDATE OF deleted_at ON kb_documents FOR EACH ROW EXECUTE FUNCTION kb_documents_stats_changed()`);
    // What the triggers would have written for the chunks already there.
    await q.query(`
      INSERT INTO kb_term_stats (tenant_id, language, lexeme, df)
      SELECT c.tenant_id, c.language, u.lexeme, count(*)
        FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL, unnest(c.tsv) u
       GROUP BY 1, 2, 3`);
    await q.query(`
      INSERT INTO kb_chunk_totals (tenant_id, language, chunks, tokens)
      SELECT c.tenant_id, c.language, count(*), sum(kb_tsv_tokens(c.tsv))
        FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL
       GROUP BY 1, 2`);
    // Tenant tables under the tenancy backstop (see KbTenantRowSecurity1764180000000).
    for (const table of ['kb_term_stats', 'kb_chunk_totals']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`CREATE POLICY kb_tenant_isolation ON ${table} USING (tenant_id = current_setting('app.tenant_id', true))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER kb_documents_stats_soft_delete ON kb_documents');
    await q.query('DROP TRIGGER kb_documents_stats_delete ON kb_documents');
    await q.query('DROP TRIGGER kb_chunks_stats_delete ON kb_chunks');
    await q.query('DROP TRIGGER kb_chunks_stats_insert ON kb_chunks');
    for (const fn of ['kb_documents_stats_changed()', 'kb_chunks_stats_deleting()', 'kb_chunks_stats_inserted()', 'kb_term_stats_apply(bigint[], integer)', 'kb_tsv_tokens(tsvector)']) {
      await q.query(`DROP FUNCTION ${fn}`);
    }
    await q.query('DROP TABLE kb_chunk_totals');
    await q.query('DROP TABLE kb_term_stats');
  }
}
