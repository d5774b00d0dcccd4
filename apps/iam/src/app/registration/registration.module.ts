import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { OAuthModule } from '../oauth/oauth.module';
import { RegistrationController } from './registration.controller';
import { RegistrationService } from './registration.service';

/**
 * Clients that were never registered by an administrator: RFC 7591 registration here; Client ID
 * Metadata Documents are resolved where clients are looked up (ClientsModule, with this folder's
 * policy and fetcher).
 */
@Module({
  imports: [ClientsModule, OAuthModule],
  controllers: [RegistrationController],
  providers: [RegistrationService],
})
export class RegistrationModule {}
