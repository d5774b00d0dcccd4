import { PasswordHasher } from '@platform/crypto';
import { DataSource } from 'typeorm';
import { KbApiEnv } from '../../config/env';
import { emailKey } from './users.repository';
import { PLATFORM_ADMIN } from './rbac';

export const DEV_ADMIN = { email: 'admin@example.com', password: 'dev-admin-password-change-me' };

/**
 * The bootstrap super-admin of tenant `default`, who also holds platform.admin. Idempotent: an
 * existing account keeps its password. Production refuses to use the development defaults.
 */
export async function seedBootstrapAdmin(db: DataSource, env: KbApiEnv): Promise<{ email: string; created: boolean; usedDefaults: boolean }> {
  const usedDefaults = !env.KB_BOOTSTRAP_ADMIN_EMAIL || !env.KB_BOOTSTRAP_ADMIN_PASSWORD;
  if (usedDefaults && env.NODE_ENV === 'production') throw new Error('KB_BOOTSTRAP_ADMIN_EMAIL and KB_BOOTSTRAP_ADMIN_PASSWORD are required in production');
  const email = env.KB_BOOTSTRAP_ADMIN_EMAIL ?? DEV_ADMIN.email;
  const password = env.KB_BOOTSTRAP_ADMIN_PASSWORD ?? DEV_ADMIN.password;
  return db.transaction(async (tx) => {
    const [existing] = await tx.query('SELECT id FROM kb_users WHERE email_key = $1', [emailKey(email)]);
    const hash = existing ? null : await new PasswordHasher().hash(password);
    const [user] = existing
      ? [existing]
      : await tx.query(
          `INSERT INTO kb_users (tenant_id, name, email, email_key, password_hash, email_verified_at) VALUES ('default', 'Administrator', $1, $2, $3, now()) RETURNING id`,
          [email.trim(), emailKey(email), hash],
        );
    await tx.query(`INSERT INTO kb_user_roles (tenant_id, user_id, role) VALUES ('default', $1, 'super-admin') ON CONFLICT DO NOTHING`, [user.id]);
    await tx.query(`INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES (NULL, $1, $2) ON CONFLICT DO NOTHING`, [user.id, PLATFORM_ADMIN]);
    await tx.query(`INSERT INTO kb_memberships (tenant_id, user_id, project_key, role) VALUES ('default', $1, 'default', 'owner') ON CONFLICT DO NOTHING`, [user.id]);
    return { email, created: !existing, usedDefaults };
  });
}
