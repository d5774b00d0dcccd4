import { Module } from '@nestjs/common';
import { KbAdminModule } from '../admin/admin.module';
import { KbAuthModule } from '../auth/auth.module';
import { CrossTenantAuditController } from './cross-tenant-audit.controller';
import { TenantOnboardingRepository } from './tenant-onboarding.repository';
import { TenantOnboardingService } from './tenant-onboarding.service';
import { TenantsAdminController } from './tenants-admin.controller';
import { TenantsAdminRepository } from './tenants-admin.repository';

/** Platform-wide administration (platform.admin only): tenants, their first admins, the cross-tenant audit. */
@Module({
  imports: [KbAuthModule, KbAdminModule],
  controllers: [TenantsAdminController, CrossTenantAuditController],
  providers: [TenantsAdminRepository, TenantOnboardingRepository, TenantOnboardingService],
})
export class KbSystemAdminModule {}
