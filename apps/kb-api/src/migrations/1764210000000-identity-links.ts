import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Explicit links from an iam identity (issuer + subject) to a KB user, created by the tenant's
 * admins: how an iam token that carries no verified e-mail of a KB user acts as that user at
 * /mcp/kb. Under the tenant policy like every tenant table (the authentication lookup runs as the
 * owner, before a tenant is chosen).
 */
export class KbIdentityLinks1764210000000 implements MigrationInterface {
  name = 'KbIdentityLinks1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_identity_links (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        created_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (issuer, subject)
      )`);
    await q.query('CREATE INDEX kb_identity_links_tenant_idx ON kb_identity_links (tenant_id, id)');
    await q.query('ALTER TABLE kb_identity_links ENABLE ROW LEVEL SECURITY');
    await q.query(`CREATE POLICY kb_tenant_isolation ON kb_identity_links USING (tenant_id = current_setting('app.tenant_id', true))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE kb_identity_links');
  }
}
