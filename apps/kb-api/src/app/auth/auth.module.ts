import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule as PlatformAuthModule } from '@platform/auth';
import { UsersRepository } from '../identity/users.repository';
import { MailerService } from '../mail/mailer.service';
import { CrossTenantAuditRepository } from '../tenancy/cross-tenant-audit.repository';
import { TenantsRepository } from '../tenancy/tenants.repository';
import { AuthMeFastRoute } from './auth-me.fast-route';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { KbAuthGuard } from './kb-auth.guard';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { SessionsService } from './sessions.service';
import { TenantStatusReader } from './tenant-status.reader';
import { ThrottleService } from './throttle.service';
import { TokenIdentities } from './token-identities';
import { TokenIdentityCache } from './token-identity-cache';
import { TwoFactorService } from './two-factor.service';

/** Accounts and authentication; `KbAuthGuard` guards every kb-api route (opt out with @Public). */
@Module({
  imports: [PlatformAuthModule.forRoot()],
  controllers: [AuthController],
  providers: [
    UsersRepository,
    TenantsRepository,
    SessionsService,
    PersonalAccessTokensService,
    ThrottleService,
    TwoFactorService,
    MailerService,
    AuthService,
    TokenIdentityCache,
    TokenIdentities,
    TenantStatusReader,
    CrossTenantAuditRepository,
    KbAuthGuard,
    { provide: APP_GUARD, useExisting: KbAuthGuard },
    AuthMeFastRoute,
  ],
  exports: [
    UsersRepository,
    TenantsRepository,
    SessionsService,
    PersonalAccessTokensService,
    ThrottleService,
    AuthService,
    KbAuthGuard,
    TokenIdentityCache,
    TenantStatusReader,
    TokenIdentities,
    CrossTenantAuditRepository,
  ],
})
export class KbAuthModule {}
