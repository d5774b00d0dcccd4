import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { ClientsModule } from './app/clients/clients.module';
import { PasswordHasher } from '@platform/crypto';
import { IamCryptoModule } from './app/crypto.module';
import { KeysModule } from './app/keys/keys.module';
import { ApplicationsRepository } from './app/management/applications.repository';
import { ClientSecretsService } from './app/management/client-secrets.service';
import { SeedService } from './app/seed.service';
import { SessionsPurger } from './app/session/sessions-purger';
import { SessionsRepository } from './app/session/sessions.repository';
import { UsersRepository } from './app/users/users.repository';
import { IamEnv } from './config/env';
import { IamConfigModule } from './config/iam-config';
import { entities } from './data-source';
import { migrations } from './migrations';

/** Application context for cli.ts tasks: data and domain services, no HTTP, no queues. */
@Module({
  imports: [
    PlatformModule.forRoot({ service: 'iam-cli', env: IamEnv, http: false, redis: false, database: { defaultName: 'iam', entities, migrations } }),
    IamConfigModule,
    IamCryptoModule,
    KeysModule,
    ClientsModule,
  ],
  providers: [SeedService, ClientSecretsService, ApplicationsRepository, SessionsPurger, SessionsRepository, UsersRepository, { provide: PasswordHasher, useFactory: () => new PasswordHasher() }],
})
export class CliModule {}
