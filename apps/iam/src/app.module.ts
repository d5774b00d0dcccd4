import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { IamCryptoModule } from './app/crypto.module';
import { LoginModule } from './app/login/login.module';
import { ManagementModule } from './app/management/management.module';
import { OAuthModule } from './app/oauth/oauth.module';
import { IamOpenApiModule } from './app/openapi.controller';
import { RegistrationModule } from './app/registration/registration.module';
import { IamEnv } from './config/env';
import { IamConfigModule } from './config/iam-config';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({ service: 'iam', env: IamEnv, database: { defaultName: 'iam', entities, migrations } }),
    IamConfigModule,
    IamCryptoModule,
    OAuthModule,
    LoginModule,
    ManagementModule,
    RegistrationModule,
    IamOpenApiModule,
  ],
})
export class AppModule {}
