import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '@platform/crypto';
import { isDuplicateEmail } from '../admin/users/admin-users.repository';
import { userView } from '../admin/users/admin-users.service';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { TenantAdminDto } from './tenants-admin.dto';
import { NewTenantAdmin, TenantOnboardingRepository } from './tenant-onboarding.repository';
import { TenantsAdminRepository } from './tenants-admin.repository';

export const tenantNotFound = () => new KbError(404, 'not_found', 'Tenant not found.');

/**
 * Makes a tenant usable without SQL: a platform admin creates it together with its first admin, or
 * adds an admin to an existing one. The admin's home tenant is that tenant, so they sign in and act
 * there like any member; nothing here grants a platform permission.
 */
@Injectable()
export class TenantOnboardingService {
  constructor(
    private readonly tenants: TenantsAdminRepository,
    private readonly onboarding: TenantOnboardingRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  /** The tenant, and its admin when one is asked for; null when the id is taken. */
  async createTenant(id: string, name: string, admin: TenantAdminDto | undefined) {
    const newAdmin = admin ? await this.newAdmin(admin) : null;
    const created = await this.withEmailCheck('admin.email', () => this.onboarding.createTenant(id, name, newAdmin));
    return created && { tenant: created.tenant, admin: created.admin && userView(created.admin) };
  }

  async addAdmin(tenantId: string, admin: TenantAdminDto) {
    if (!(await this.tenants.find(tenantId))) throw tenantNotFound();
    const newAdmin = await this.newAdmin(admin);
    return userView(await this.withEmailCheck('email', () => this.onboarding.addAdmin(tenantId, newAdmin)));
  }

  /** The admin as stored: the password hashed, a super-admin unless another tenant role is asked for. */
  private async newAdmin(admin: TenantAdminDto): Promise<NewTenantAdmin> {
    return { name: admin.name, email: admin.email, passwordHash: await this.passwords.hash(admin.password), role: admin.role ?? 'super-admin' };
  }

  /** One global identity per email: a taken email is a 422 on the field, and nothing is kept. */
  private async withEmailCheck<T>(field: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (isDuplicateEmail(e)) throw new KbValidationError({ [field]: ['The email has already been taken.'] });
      throw e;
    }
  }
}
