import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule as PlatformAuthModule } from '@platform/auth';
import { Clock } from '@platform/runtime';
import { UsersRepository } from '../identity/users.repository';
import { MailOutboxRepository } from '../mail/mail-outbox.repository';
import { MailerService } from '../mail/mailer.service';
import { CrossTenantAuditRepository } from '../tenancy/cross-tenant-audit.repository';
import { TenantsRepository } from '../tenancy/tenants.repository';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { KbAuthGuard } from './kb-auth.guard';
import { PasswordResetsRepository } from './password-resets.repository';
import { PersonalAccessTokensRepository } from './personal-access-tokens.repository';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { IamTokenStrategy } from './strategies/iam-token.strategy';
import { PersonalAccessTokenStrategy } from './strategies/personal-access-token.strategy';
import { SessionStrategy } from './strategies/session.strategy';
import { TenantStatusReader } from './tenant-status.reader';
import { ThrottleService } from './throttle.service';
import { TokenIdentities } from './token-identities';
import { TokenIdentityCache } from './token-identity-cache';
import { TwoFactorService } from './two-factor.service';

/**
 * Accounts and authentication; `KbAuthGuard` guards every kb-api route (opt out with @Public) with
 * the passport strategies for personal access tokens, iam tokens and cookie sessions.
 */
@Module({
  imports: [PlatformAuthModule.forRoot({ clock: Clock })],
  controllers: [AuthController],
  providers: [
    UsersRepository,
    TenantsRepository,
    SessionsRepository,
    SessionsService,
    PersonalAccessTokensRepository,
    PersonalAccessTokensService,
    PasswordResetsRepository,
    ThrottleService,
    TwoFactorService,
    MailOutboxRepository,
    MailerService,
    AuthService,
    TokenIdentityCache,
    TokenIdentities,
    TenantStatusReader,
    CrossTenantAuditRepository,
    PersonalAccessTokenStrategy,
    IamTokenStrategy,
    SessionStrategy,
    KbAuthGuard,
    { provide: APP_GUARD, useExisting: KbAuthGuard },
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
    PersonalAccessTokenStrategy,
    SessionStrategy,
  ],
})
export class KbAuthModule {}
