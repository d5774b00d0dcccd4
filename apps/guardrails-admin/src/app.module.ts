import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { GuardrailsAdminEnv } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'guardrails-admin',
      env: GuardrailsAdminEnv,
      database: { defaultName: 'guardrails', entities, migrations },
    }),
  ],
})
export class AppModule {}
