import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A role's grants per tenant. kb_role_permissions keeps the seeded defaults; a tenant whose admins
 * reshaped a role has a row here, and for that tenant it replaces the defaults of that role. Every
 * reader of role grants goes through kb_effective_role_permissions, so a change in one tenant never
 * reaches another.
 */
export class KbTenantRoleGrants1764160000000 implements MigrationInterface {
  name = 'KbTenantRoleGrants1764160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_tenant_role_grants (
        tenant_id text NOT NULL REFERENCES kb_tenants(id) ON DELETE CASCADE,
        role text NOT NULL REFERENCES kb_roles(name) ON DELETE CASCADE,
        permissions text[] NOT NULL,
        updated_by bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, role)
      )`);
    await q.query(`
      CREATE VIEW kb_effective_role_permissions AS
        SELECT t.id AS tenant_id, rp.role, rp.permission
          FROM kb_tenants t CROSS JOIN kb_role_permissions rp
         WHERE NOT EXISTS (SELECT 1 FROM kb_tenant_role_grants g WHERE g.tenant_id = t.id AND g.role = rp.role)
        UNION ALL
        SELECT g.tenant_id, g.role, p.permission
          FROM kb_tenant_role_grants g CROSS JOIN LATERAL unnest(g.permissions) AS p(permission)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW kb_effective_role_permissions');
    await q.query('DROP TABLE kb_tenant_role_grants');
  }
}
