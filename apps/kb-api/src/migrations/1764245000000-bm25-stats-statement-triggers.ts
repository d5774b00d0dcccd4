import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cheaper upkeep of the BM25 statistics (KbBm25TermStats1764225000000), same figures.
 *
 * Inserted chunks: the statement trigger read its rows' ids out of the transition table, then read
 * every chunk back by id three times (the tenant lock, the terms, the totals) and walked each vector
 * twice (its lexemes, then kb_tsv_tokens for its length). It now reads the transition table itself
 * and walks each vector once: the walk gives the lexemes (document frequencies) and the tokens
 * (chunk lengths) together. On 100,000 chunks that was ≈ 3–4 ms per document version of ≈ 6 chunks,
 * about a third of end-to-end ingest time (docs/benchmarks.md).
 *
 * Deleted chunks: a row trigger took each chunk off on its own (lock, one upsert per lexeme, totals)
 * before it went, so a new version of a 40-chunk document made 40 rounds. A statement trigger now
 * takes a statement's chunks off together from its transition table, after the delete. A chunk
 * counts when its document is there and not soft-deleted at that point: when the document itself is
 * being hard-deleted, the cascade's delete of its chunks runs after the document row is gone, and
 * the document's own trigger took them off before (as before this change, nothing is taken off
 * twice).
 *
 * Writers of one tenant still take the per-tenant advisory lock first (one lock order, no deadlock
 * between concurrent ingest jobs updating the same lexemes).
 */
export class KbBm25StatsStatementTriggers1764245000000 implements MigrationInterface {
  name = 'KbBm25StatsStatementTriggers1764245000000';

  async up(q: QueryRunner): Promise<void> {
    // Adds sign × the given live chunks (tenant, language and vector of each, from a transition table) to the statistics,
    // in one statement: the walk over the vectors (w) feeds both the lexemes' upsert and the totals.
    await q.query(`
      CREATE FUNCTION kb_term_stats_add(tenants text[], languages regconfig[], vectors tsvector[], sign integer) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF coalesce(cardinality(tenants), 0) = 0 THEN RETURN; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('kb_term_stats'), hashtext(t.tenant_id))
           FROM (SELECT DISTINCT x.tenant_id FROM unnest(tenants) x(tenant_id) ORDER BY 1) t;
        WITH c AS MATERIALIZED (
          SELECT * FROM unnest(tenants, languages, vectors) AS c(tenant_id, language, tsv)),
        w AS MATERIALIZED (
          SELECT c.tenant_id, c.language, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tokens FROM c, unnest(c.tsv) u),
        terms AS (
          INSERT INTO kb_term_stats AS s (tenant_id, language, lexeme, df)
          SELECT w.tenant_id, w.language, w.lexeme, sign * count(*) FROM w GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (tenant_id, language, lexeme) DO UPDATE SET df = s.df + excluded.df)
        INSERT INTO kb_chunk_totals AS s (tenant_id, language, chunks, tokens)
        SELECT n.tenant_id, n.language, sign * n.chunks, sign * coalesce(t.tokens, 0)
          FROM (SELECT c.tenant_id, c.language, count(*) AS chunks FROM c GROUP BY 1, 2) n
          LEFT JOIN (SELECT w.tenant_id, w.language, sum(w.tokens) AS tokens FROM w GROUP BY 1, 2) t
            ON t.tenant_id = n.tenant_id AND t.language = n.language
         ORDER BY 1, 2
        ON CONFLICT (tenant_id, language) DO UPDATE SET chunks = s.chunks + excluded.chunks, tokens = s.tokens + excluded.tokens;
        IF sign < 0 THEN
          DELETE FROM kb_term_stats s USING (SELECT DISTINCT x.tenant_id FROM unnest(tenants) x(tenant_id)) t
           WHERE s.tenant_id = t.tenant_id AND s.df <= 0;
        END IF;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION kb_chunks_stats_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_term_stats_add(array_agg(n.tenant_id), array_agg(n.language), array_agg(n.tsv), 1)
           FROM new_rows n JOIN kb_documents d ON d.id = n.document_id WHERE d.deleted_at IS NULL;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION kb_chunks_stats_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_term_stats_add(array_agg(o.tenant_id), array_agg(o.language), array_agg(o.tsv), -1)
           FROM old_rows o JOIN kb_documents d ON d.id = o.document_id WHERE d.deleted_at IS NULL;
        RETURN NULL;
      END $$`);
    await q.query('DROP TRIGGER kb_chunks_stats_delete ON kb_chunks');
    await q.query('DROP FUNCTION kb_chunks_stats_deleting()');
    await q.query(`CREATE TRIGGER kb_chunks_stats_delete AFTER DELETE ON kb_chunks REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kb_chunks_stats_deleted()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER kb_chunks_stats_delete ON kb_chunks');
    await q.query('DROP FUNCTION kb_chunks_stats_deleted()');
    await q.query(`
      CREATE FUNCTION kb_chunks_stats_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = OLD.document_id AND d.deleted_at IS NULL) THEN
          PERFORM kb_term_stats_apply(ARRAY[OLD.id], -1);
        END IF;
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER kb_chunks_stats_delete BEFORE DELETE ON kb_chunks FOR EACH ROW EXECUTE FUNCTION kb_chunks_stats_deleting()`);
    await q.query(`
      CREATE OR REPLACE FUNCTION kb_chunks_stats_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_term_stats_apply(array(SELECT n.id FROM new_rows n JOIN kb_documents d ON d.id = n.document_id WHERE d.deleted_at IS NULL), 1);
        RETURN NULL;
      END $$`);
    await q.query('DROP FUNCTION kb_term_stats_add(text[], regconfig[], tsvector[], integer)');
  }
}
