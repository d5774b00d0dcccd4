import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { KeysModule } from '../keys/keys.module';
import { ClientAuthenticator } from './client-authenticator.service';
import { DiscoveryController } from './discovery.controller';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { TokenController } from './token.controller';
import { TokenIssuer } from './token-issuer.service';

@Module({
  imports: [ClientsModule, KeysModule],
  controllers: [TokenController, DiscoveryController],
  providers: [ClientAuthenticator, TokenIssuer, OAuthRateLimitGuard],
  exports: [TokenIssuer],
})
export class OAuthModule {}
