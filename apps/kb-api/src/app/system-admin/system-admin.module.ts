import { Module } from '@nestjs/common';
import { TenantsAdminController } from './tenants-admin.controller';
import { TenantsAdminRepository } from './tenants-admin.repository';

/** Platform-wide administration (platform.admin only): tenants. */
@Module({
  controllers: [TenantsAdminController],
  providers: [TenantsAdminRepository],
})
export class KbSystemAdminModule {}
