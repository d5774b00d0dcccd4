import { Module, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { confineToTenant } from '@platform/database';
import { DataSource } from 'typeorm';
import { TenantScopeInterceptor } from './tenant-scope.interceptor';

/** The role the tenant-row-security migration creates; its policies confine it to app.tenant_id. */
export const KB_TENANT_ROLE = 'kb_tenant';

/**
 * Defence in depth for tenancy in the HTTP process (docs/security.md): a tenant's request runs its
 * queries as kb_tenant, so one that forgets its tenant returns nothing. The worker and the CLI do
 * not import this module and keep the owner's reach.
 */
@Module({ providers: [{ provide: APP_INTERCEPTOR, useClass: TenantScopeInterceptor }] })
export class RowSecurityModule implements OnModuleInit {
  // Holds the DataSource because it is the row-security mechanism itself (it wraps the connection), not data access.
  constructor(private readonly db: DataSource) {}

  onModuleInit(): void {
    confineToTenant(this.db, KB_TENANT_ROLE);
  }
}
