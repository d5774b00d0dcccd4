import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { Clock } from '@platform/runtime';
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
  imports: [ClientsModule, OAuthModule, AuthModule.forRoot({ clock: Clock })],
  controllers: [ManagementController, SelfFetchController],
  providers: [ApplicationsRepository, ClientSecretsService, ApplicationsService, IdempotencyService, ClientSecretMetrics],
  exports: [ClientSecretsService],
})
export class ManagementModule {}
