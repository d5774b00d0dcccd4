import { PasswordHasher } from '@platform/crypto';
import type { KbConfig } from '../../config/kb-config';
import { BootstrapAdminRepository } from './bootstrap-admin.repository';

export const DEV_ADMIN = { email: 'admin@example.com', password: 'dev-admin-password-change-me' };

/**
 * The bootstrap super-admin of tenant `default`, who also holds platform.admin. Idempotent: an
 * existing account keeps its password. Production refuses to use the development defaults.
 */
export async function seedBootstrapAdmin(admins: BootstrapAdminRepository, config: KbConfig): Promise<{ email: string; created: boolean; usedDefaults: boolean }> {
  const configuredEmail = config.get('KB_BOOTSTRAP_ADMIN_EMAIL');
  const configuredPassword = config.get('KB_BOOTSTRAP_ADMIN_PASSWORD');
  const usedDefaults = !configuredEmail || !configuredPassword;
  if (usedDefaults && config.get('NODE_ENV') === 'production') throw new Error('KB_BOOTSTRAP_ADMIN_EMAIL and KB_BOOTSTRAP_ADMIN_PASSWORD are required in production');
  const email = configuredEmail ?? DEV_ADMIN.email;
  const password = configuredPassword ?? DEV_ADMIN.password;
  const { created } = await admins.ensureAdmin(email, () => new PasswordHasher().hash(password));
  return { email, created, usedDefaults };
}
