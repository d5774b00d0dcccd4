import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { PasswordHasher } from '@platform/crypto';
import { ClientsModule } from '../clients/clients.module';
import { ConsentController } from '../consent/consent.controller';
import { OAuthModule } from '../oauth/oauth.module';
import { SessionModule } from '../session/session.module';
import { AccountAccessService } from './account-access';
import { AccountController } from './account.controller';
import { CsrfService } from './csrf.service';
import { LoginController } from './login.controller';
import { LoginPages } from './login-pages';
import { LoginThrottle } from './login-throttle.service';
import { PasskeysController } from './passkeys/passkeys.controller';
import { PasskeysRepository } from './passkeys/passkeys.repository';
import { PasskeysService } from './passkeys/passkeys.service';
import { PasswordLoginService } from './password-login.service';
import { PendingLoginStore } from './pending-login';
import { ReturnToLimit } from './return-to-limit';
import { SecondFactorService } from './second-factor.service';
import { PasswordLoginGuard } from './strategies/password-login.guard';
import { PasswordStrategy } from './strategies/password.strategy';
import { SocialLoginController } from './social/social-login.controller';
import { FederatedIdentitiesRepository } from './social/federated-identities.repository';
import { SocialLoginService } from './social/social-login.service';
import { TotpService } from './totp.service';

/** Interactive sign-in pages under /login: password, TOTP, passkeys, social, consent, account. */
@Module({
  imports: [OAuthModule, ClientsModule, SessionModule],
  controllers: [LoginController, AccountController, PasskeysController, SocialLoginController, ConsentController],
  providers: [
    { provide: PasswordHasher, useFactory: () => new PasswordHasher() },
    AccountAccessService,
    CsrfService,
    LoginPages,
    LoginThrottle,
    PasskeysRepository,
    PasskeysService,
    PasswordLoginService,
    PasswordStrategy,
    PasswordLoginGuard,
    PendingLoginStore,
    SecondFactorService,
    SocialLoginService,
    FederatedIdentitiesRepository,
    TotpService,
  ],
})
export class LoginModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Every route under /login (sign-in, second factor, step-up, consent, passkeys, social, account).
    consumer.apply(ReturnToLimit).forRoutes({ path: 'login{/*path}', method: RequestMethod.ALL });
  }
}
