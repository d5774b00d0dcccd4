import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenant roles carry tenant permissions only: `tenant.cross-access` (the anchor's way into other
 * tenants, granted to every super-admin) is withdrawn from every role, tenant override and user;
 * entering another tenant is part of the global platform.admin now. Each such entry is recorded in
 * kb_cross_tenant_audit, which is global (read on the system-admin surface). Documents remember who
 * first ingested them, so overwriting or deleting someone else's document can need kb.edit.any or
 * kb.delete.any.
 */
export class KbPlatformTenancy1764170000000 implements MigrationInterface {
  name = 'KbPlatformTenancy1764170000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE kb_tenant_role_grants SET permissions = array_remove(permissions, 'tenant.cross-access'), updated_at = now()
                    WHERE 'tenant.cross-access' = ANY(permissions)`);
    await q.query(`DELETE FROM kb_user_permissions WHERE permission = 'tenant.cross-access'`);
    await q.query(`DELETE FROM kb_role_permissions WHERE permission = 'tenant.cross-access'`);
    await q.query(`DELETE FROM kb_permissions WHERE name = 'tenant.cross-access'`);

    await q.query(`
      CREATE TABLE kb_cross_tenant_audit (
        id bigserial PRIMARY KEY,
        actor_user_id bigint NOT NULL,
        actor_email text NOT NULL,
        credential text NOT NULL CHECK (credential IN ('session', 'token')),
        home_tenant_id text NOT NULL,
        target_tenant_id text NOT NULL,
        method text NOT NULL,
        route text NOT NULL,
        path text NOT NULL,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // No foreign keys: the record outlives the account and the tenant it names.
    await q.query('CREATE INDEX kb_cross_tenant_audit_time_idx ON kb_cross_tenant_audit (created_at DESC, id DESC)');
    await q.query('CREATE INDEX kb_cross_tenant_audit_target_idx ON kb_cross_tenant_audit (target_tenant_id, id DESC)');
    await q.query('CREATE INDEX kb_cross_tenant_audit_actor_idx ON kb_cross_tenant_audit (actor_user_id, id DESC)');

    await q.query('ALTER TABLE kb_documents ADD COLUMN created_by bigint REFERENCES kb_users(id) ON DELETE SET NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE kb_documents DROP COLUMN created_by');
    await q.query('DROP TABLE kb_cross_tenant_audit');
    await q.query(`INSERT INTO kb_permissions (name) VALUES ('tenant.cross-access') ON CONFLICT DO NOTHING`);
  }
}
