import { Module } from '@nestjs/common';
import { KbAuthModule } from '../auth/auth.module';
import { MembershipsController } from './memberships/memberships.controller';
import { MembershipsRepository } from './memberships/memberships.repository';
import { MembershipsService } from './memberships/memberships.service';
import { RolesController } from './roles/roles.controller';
import { RolesRepository } from './roles/roles.repository';
import { RolesService } from './roles/roles.service';
import { AdminUsersController } from './users/admin-users.controller';
import { AdminUsersRepository } from './users/admin-users.repository';
import { AdminUsersService } from './users/admin-users.service';

/** The tenant admin surfaces for accounts: users, roles, permissions and project memberships. */
@Module({
  imports: [KbAuthModule],
  controllers: [AdminUsersController, RolesController, MembershipsController],
  providers: [
    AdminUsersRepository,
    AdminUsersService,
    RolesRepository,
    RolesService,
    MembershipsRepository,
    MembershipsService,
  ],
  // Tenant onboarding on the system-admin surface creates a tenant's first admin account.
  exports: [AdminUsersRepository],
})
export class KbAdminModule {}
