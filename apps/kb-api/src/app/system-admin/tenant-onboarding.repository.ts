import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AdminUserRow, AdminUsersRepository } from '../admin/users/admin-users.repository';
import { Role } from '../identity/rbac';
import { TenantAdminRow, TenantsAdminRepository } from './tenants-admin.repository';

/** A tenant admin to create: the password is already hashed. */
export interface NewTenantAdmin {
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
}

/**
 * The onboarding writes, each in one transaction: a tenant with its first admin are created together
 * or not at all. The SQL stays with the repositories that own the tables (tenants, users); this one
 * only holds their writes in a single transaction, so the service needs no connection of its own.
 */
@Injectable()
export class TenantOnboardingRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tenants: TenantsAdminRepository,
    private readonly users: AdminUsersRepository,
  ) {}

  /** The tenant (with its `default` project) and, when given, its admin; null when the id is taken. */
  createTenant(id: string, name: string, admin: NewTenantAdmin | null): Promise<{ tenant: TenantAdminRow; admin: AdminUserRow | null } | null> {
    return this.db.transaction(async (tx) => {
      const tenant = await this.tenants.create(id, name, tx);
      if (!tenant) return null;
      if (!admin) return { tenant, admin: null };
      const user = await this.insertAdmin(tx, tenant.id, admin);
      // Read again so users_count includes the admin.
      return { tenant: (await this.tenants.find(id, tx)) as TenantAdminRow, admin: user };
    });
  }

  /** Another admin of an existing tenant, with the ownership of its `default` project. */
  addAdmin(tenantId: string, admin: NewTenantAdmin): Promise<AdminUserRow> {
    return this.db.transaction((tx) => this.insertAdmin(tx, tenantId, admin));
  }

  private async insertAdmin(tx: EntityManager, tenantId: string, admin: NewTenantAdmin): Promise<AdminUserRow> {
    const row = await this.users.create(tenantId, { name: admin.name, email: admin.email, passwordHash: admin.passwordHash, active: true }, [admin.role], tx);
    await this.tenants.grantDefaultProject(tenantId, row.id, tx);
    return row;
  }
}
