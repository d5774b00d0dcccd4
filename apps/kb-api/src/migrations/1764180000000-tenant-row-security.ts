import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-level security as the backstop of tenancy: a query that forgets its tenant returns nothing.
 *
 * `kb_tenant` is a role without login and without BYPASSRLS that owns nothing, so policies apply to
 * it; the HTTP process runs a tenant's requests as it (SET ROLE, with app.tenant_id set), while
 * migrations, workers and platform-wide routes keep running as the owner, which RLS does not
 * confine. Roles belong to the whole Postgres cluster, so creating it tolerates another database
 * having done so first; the grants are per database.
 *
 * Every table with a tenant_id column gets the policy, except these (see docs/security.md):
 * - the tables that establish who the caller is and which tenants they may enter: read while
 *   authenticating, before any tenant is chosen, and across tenants by design (a user's home
 *   tenant, memberships and grants elsewhere);
 * - kb_chunks: Postgres uses an index only for leakproof operators under a policy, and the
 *   full-text match `@@` is not one, so chat's GIN prefilter would become a scan of the tenant's
 *   chunks. Chunks are read joined to kb_documents, which is under the policy.
 * Tables created later get the privileges by default; their migration adds the policy (a test
 * checks every tenant_id table is either under it or listed here).
 */
const ROLE = 'kb_tenant';
const SETTING = 'app.tenant_id';
const EXEMPT = [
  'kb_users',
  'kb_memberships',
  'kb_user_roles',
  'kb_user_permissions',
  'kb_tenant_role_grants',
  'kb_sessions',
  'kb_personal_access_tokens',
  'kb_chunks',
];
const POLICY = 'kb_tenant_isolation';

export class KbTenantRowSecurity1764180000000 implements MigrationInterface {
  name = 'KbTenantRowSecurity1764180000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$ BEGIN
        CREATE ROLE ${ROLE} NOLOGIN;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$`);
    // The connecting user switches to the role with SET ROLE, which needs membership (a superuser
    // needs none, a managed database's application user does).
    await q.query(`
      DO $$ BEGIN
        IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
          EXECUTE format('GRANT ${ROLE} TO %I', current_user);
        END IF;
      END $$`);
    await q.query(`GRANT USAGE ON SCHEMA public TO ${ROLE}`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${ROLE}`);
    await q.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${ROLE}`);
    await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${ROLE}`);
    await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${ROLE}`);
    for (const table of await tenantTables(q)) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`CREATE POLICY ${POLICY} ON ${table} USING (tenant_id = current_setting('${SETTING}', true))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of await tenantTables(q)) {
      await q.query(`DROP POLICY IF EXISTS ${POLICY} ON ${table}`);
      await q.query(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
    }
    await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM ${ROLE}`);
    await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON SEQUENCES FROM ${ROLE}`);
    await q.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${ROLE}`);
    await q.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${ROLE}`);
    await q.query(`REVOKE USAGE ON SCHEMA public FROM ${ROLE}`);
    // The role stays: other databases on the cluster may use it.
  }
}

/** Tables of this schema with a tenant_id column, less the exempt ones. */
async function tenantTables(q: QueryRunner): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await q.query(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'
        AND NOT (c.table_name = ANY($1))
      ORDER BY 1`,
    [EXEMPT],
  );
  return rows.map((r) => `"${r.table_name}"`);
}
