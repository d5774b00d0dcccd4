import { DataSource } from 'typeorm';
import { PLATFORM_ADMIN } from './rbac';
import { emailKey } from './users.repository';

/**
 * The rows that make the bootstrap super-admin: the account in tenant `default`, its super-admin
 * role, the platform.admin permission and the owner membership of project `default`. Used by the
 * CLI's seed (outside Nest, on a DataSource it opens), with the owner's reach.
 */
export class BootstrapAdminRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Ensures the account and its grants in one transaction. An existing account keeps its password:
   * `passwordHash` is called only when the account is created.
   */
  ensureAdmin(email: string, passwordHash: () => Promise<string>): Promise<{ created: boolean }> {
    return this.db.transaction(async (tx) => {
      const [existing] = await tx.query('SELECT id FROM kb_users WHERE email_key = $1', [emailKey(email)]);
      const [user] = existing
        ? [existing]
        : await tx.query(
            `INSERT INTO kb_users (tenant_id, name, email, email_key, password_hash, email_verified_at) VALUES ('default', 'Administrator', $1, $2, $3, now()) RETURNING id`,
            [email.trim(), emailKey(email), await passwordHash()],
          );
      await tx.query(`INSERT INTO kb_user_roles (tenant_id, user_id, role) VALUES ('default', $1, 'super-admin') ON CONFLICT DO NOTHING`, [user.id]);
      await tx.query(`INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES (NULL, $1, $2) ON CONFLICT DO NOTHING`, [user.id, PLATFORM_ADMIN]);
      await tx.query(`INSERT INTO kb_memberships (tenant_id, user_id, project_key, role) VALUES ('default', $1, 'default', 'owner') ON CONFLICT DO NOTHING`, [user.id]);
      return { created: !existing };
    });
  }
}
