import { PasswordHasher } from '@platform/crypto';
import { KbApiEnv } from '../../config/env';
import { BootstrapAdminRepository } from './bootstrap-admin.repository';

export const DEV_ADMIN = { email: 'admin@example.com', password: 'dev-admin-password-change-me' };

/**
 * The bootstrap super-admin of tenant `default`, who also holds platform.admin. Idempotent: an
 * existing account keeps its password. Production refuses to use the development defaults.
 */
export async function seedBootstrapAdmin(admins: BootstrapAdminRepository, env: KbApiEnv): Promise<{ email: string; created: boolean; usedDefaults: boolean }> {
  const usedDefaults = !env.KB_BOOTSTRAP_ADMIN_EMAIL || !env.KB_BOOTSTRAP_ADMIN_PASSWORD;
  if (usedDefaults && env.NODE_ENV === 'production') throw new Error('KB_BOOTSTRAP_ADMIN_EMAIL and KB_BOOTSTRAP_ADMIN_PASSWORD are required in production');
  const email = env.KB_BOOTSTRAP_ADMIN_EMAIL ?? DEV_ADMIN.email;
  const password = env.KB_BOOTSTRAP_ADMIN_PASSWORD ?? DEV_ADMIN.password;
  const { created } = await admins.ensureAdmin(email, () => new PasswordHasher().hash(password));
  return { email, created, usedDefaults };
}
