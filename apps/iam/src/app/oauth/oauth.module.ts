import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { Clock } from '@platform/runtime';
import { ClientsModule } from '../clients/clients.module';
import { ConsentsRepository } from '../consent/consents.repository';
import { GrantsRepository } from '../grants/grants.repository';
import { KeysModule } from '../keys/keys.module';
import { SessionModule } from '../session/session.module';
import { UsersRepository } from '../users/users.repository';
import { AuthorizeController } from './authorize.controller';
import { AuthorizeService } from './authorize.service';
import { ClientAuthenticator } from './client-authenticator.service';
import { DiscoveryController } from './discovery.controller';
import { DpopProofs } from './dpop-proofs.service';
import { LocalTokenVerifier } from './local-token-verifier.service';
import { ParController } from './par.controller';
import { IdTokenHints } from './id-token-hints';
import { PushedRequests } from './pushed-requests';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { ResourceIndicators } from './resource-indicators';
import { RevocationController } from './revocation.controller';
import { TokenController } from './token.controller';
import { TokenIssuer } from './token-issuer.service';
import { userinfoAuthenticatorProvider } from './userinfo-authenticator';
import { UserinfoController } from './userinfo.controller';
import { UserTokensService } from './user-tokens.service';

@Module({
  // One AuthModule (global): the management API verifies access tokens, DPoP proofs included, with
  // the authenticator every resource service uses; userinfo with the same one over all iam's audiences.
  imports: [ClientsModule, KeysModule, SessionModule, AuthModule.forRoot({ clock: Clock })],
  controllers: [AuthorizeController, TokenController, ParController, DiscoveryController, UserinfoController, RevocationController],
  providers: [
    AuthorizeService,
    ClientAuthenticator,
    TokenIssuer,
    UserTokensService,
    LocalTokenVerifier,
    OAuthRateLimitGuard,
    GrantsRepository,
    UsersRepository,
    ConsentsRepository,
    DpopProofs,
    IdTokenHints,
    PushedRequests,
    ResourceIndicators,
    userinfoAuthenticatorProvider,
  ],
  exports: [TokenIssuer, ClientAuthenticator, OAuthRateLimitGuard, AuthorizeService, UsersRepository, ConsentsRepository],
})
export class OAuthModule {}
