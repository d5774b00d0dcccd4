import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '@platform/crypto';
import type { EntityManager } from 'typeorm';
import { AdminUsersRepository, isDuplicateEmail } from '../admin/users/admin-users.repository';
import { userView } from '../admin/users/admin-users.service';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { TenantAdminDto } from './tenants-admin.dto';
import { TenantAdminRow, TenantsAdminRepository } from './tenants-admin.repository';

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
    private readonly users: AdminUsersRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  /** The tenant, and its admin when one is asked for; null when the id is taken. */
  async createTenant(id: string, name: string, admin: TenantAdminDto | undefined) {
    const passwordHash = admin ? await this.passwords.hash(admin.password) : null;
    return this.withEmailCheck('admin.email', () =>
      this.tenants.transaction(async (tx) => {
        const tenant = await this.tenants.create(id, name, tx);
        if (!tenant) return null;
        if (!admin) return { tenant, admin: null };
        const user = await this.insertAdmin(tx, tenant.id, admin, passwordHash!);
        // Read again so users_count includes the admin.
        return { tenant: (await this.tenants.find(id, tx)) as TenantAdminRow, admin: user };
      }),
    );
  }

  async addAdmin(tenantId: string, admin: TenantAdminDto) {
    if (!(await this.tenants.find(tenantId))) throw tenantNotFound();
    const passwordHash = await this.passwords.hash(admin.password);
    return this.withEmailCheck('email', () =>
      this.tenants.transaction((tx) => this.insertAdmin(tx, tenantId, admin, passwordHash)),
    );
  }

  private async insertAdmin(tx: EntityManager, tenantId: string, admin: TenantAdminDto, passwordHash: string) {
    const row = await this.users.create(
      tenantId,
      { name: admin.name, email: admin.email, passwordHash, active: true },
      [admin.role ?? 'super-admin'],
      tx,
    );
    await this.tenants.grantDefaultProject(tenantId, row.id, tx);
    return userView(row);
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
