import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { QueueModule } from '@platform/queue';
import { PlatformModule } from '@platform/runtime';
import { IamCryptoModule } from './app/crypto.module';
import { KeysModule } from './app/keys/keys.module';
import { ClientsModule } from './app/clients/clients.module';
import { ApplicationsRepository } from './app/management/applications.repository';
import { ClientSecretsService } from './app/management/client-secrets.service';
import { MaintenanceProcessor } from './app/maintenance.processor';
import { SessionsPurger } from './app/session/sessions-purger';
import { SessionsRepository } from './app/session/sessions.repository';
import { IamEnv } from './config/env';
import { IamConfigModule } from './config/iam-config';
import { entities } from './data-source';
import { migrations } from './migrations';

/** The BullMQ worker process: the same feature modules as the API plus their processors. */
@Module({
  imports: [
    PlatformModule.forRoot({ service: 'iam-worker', env: IamEnv, http: false, database: { defaultName: 'iam', entities, migrations } }),
    IamConfigModule,
    QueueModule.forRoot('iam'),
    BullModule.registerQueue({ name: QUEUES.iamMaintenance }),
    IamCryptoModule,
    KeysModule,
    ClientsModule,
  ],
  providers: [MaintenanceProcessor, ClientSecretsService, ApplicationsRepository, SessionsPurger, SessionsRepository],
})
export class WorkerModule {}
