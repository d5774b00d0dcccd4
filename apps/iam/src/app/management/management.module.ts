import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { OAuthModule } from '../oauth/oauth.module';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationsService } from './applications.service';
import { ClientSecretMetrics } from './client-secret.metrics';
import { ClientSecretsService } from './client-secrets.service';
import { IdempotencyService } from './idempotency.service';
import { ManagementController } from './management.controller';
import { SelfFetchController } from './self-fetch.controller';

@Module({
  // The access-token authenticator (JwtAuthGuard) comes from OAuthModule's AuthModule, which is global.
  imports: [ClientsModule, OAuthModule],
  controllers: [ManagementController, SelfFetchController],
  providers: [ApplicationsRepository, ClientSecretsService, ApplicationsService, IdempotencyService, ClientSecretMetrics],
  exports: [ClientSecretsService],
})
export class ManagementModule {}
