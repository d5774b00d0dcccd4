import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A per-tenant counter of changes to the set of live chunks, for the in-memory lexical index
 * (retrieval/lexical-indexes.ts): each kb-api process holds a tenant's chunks in memory and
 * compares this counter, read with the term statistics on every query, with the one it last
 * loaded at. Chunks inserted or deleted, and documents soft-deleted, restored or deleted, bump it
 * in the same transaction as the write, whichever code path writes. An update of chunk rows (the
 * reindex command re-analyses them in place) may change their lexemes, so it also bumps `epoch`:
 * a process then loads the tenant's chunks again from scratch.
 *
 * The bump takes the tenant's statistics lock first (as the statistics triggers do, which fire
 * before these by name), so writers of one tenant keep one lock order.
 */
export class KbChunkGenerations1764265000000 implements MigrationInterface {
  name = 'KbChunkGenerations1764265000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE kb_chunk_generations (tenant_id text PRIMARY KEY, generation bigint NOT NULL, epoch bigint NOT NULL DEFAULT 0)`);
    await q.query(`ALTER TABLE kb_chunk_generations ENABLE ROW LEVEL SECURITY`);
    await q.query(`CREATE POLICY kb_tenant_isolation ON kb_chunk_generations USING (tenant_id = current_setting('app.tenant_id', true))`);
    await q.query(`
      CREATE FUNCTION kb_chunk_generation_bump(tenants text[], rewritten boolean) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('kb_term_stats'), hashtext(t.tenant_id))
           FROM (SELECT DISTINCT x.tenant_id FROM unnest(tenants) x(tenant_id) WHERE x.tenant_id IS NOT NULL ORDER BY 1) t;
        INSERT INTO kb_chunk_generations AS g (tenant_id, generation, epoch)
        SELECT DISTINCT x.tenant_id, 1, CASE WHEN rewritten THEN 1 ELSE 0 END FROM unnest(tenants) x(tenant_id) WHERE x.tenant_id IS NOT NULL ORDER BY 1
        ON CONFLICT (tenant_id) DO UPDATE SET generation = g.generation + 1, epoch = g.epoch + excluded.epoch;
      END $$`);
    await q.query(`
      CREATE FUNCTION kb_chunks_touch_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_chunk_generation_bump(array(SELECT DISTINCT tenant_id FROM new_rows), false);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION kb_chunks_touch_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_chunk_generation_bump(array(SELECT DISTINCT tenant_id FROM old_rows), false);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION kb_chunks_touch_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_chunk_generation_bump(array(SELECT tenant_id FROM new_rows UNION SELECT tenant_id FROM old_rows), true);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION kb_documents_touch_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM kb_chunk_generation_bump(ARRAY[NEW.tenant_id], false);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER kb_chunks_touch_insert AFTER INSERT ON kb_chunks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kb_chunks_touch_inserted()`);
    await q.query(`CREATE TRIGGER kb_chunks_touch_delete AFTER DELETE ON kb_chunks REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kb_chunks_touch_deleted()`);
    await q.query(`CREATE TRIGGER kb_chunks_touch_update AFTER UPDATE ON kb_chunks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kb_chunks_touch_updated()`);
    await q.query(
      `CREATE TRIGGER kb_documents_touch_soft_delete AFTER UPDATE OF deleted_at ON kb_documents FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) EXECUTE FUNCTION kb_documents_touch_changed()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER kb_documents_touch_soft_delete ON kb_documents');
    await q.query('DROP TRIGGER kb_chunks_touch_update ON kb_chunks');
    await q.query('DROP TRIGGER kb_chunks_touch_delete ON kb_chunks');
    await q.query('DROP TRIGGER kb_chunks_touch_insert ON kb_chunks');
    for (const fn of ['kb_documents_touch_changed()', 'kb_chunks_touch_updated()', 'kb_chunks_touch_deleted()', 'kb_chunks_touch_inserted()', 'kb_chunk_generation_bump(text[], boolean)']) {
      await q.query(`DROP FUNCTION ${fn}`);
    }
    await q.query('DROP TABLE kb_chunk_generations');
  }
}
