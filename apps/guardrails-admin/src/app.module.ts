import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { GuardrailsApiModule } from './app/api/guardrails-api.module';
import { GuardrailsRuntimeModule } from './app/runtime/guardrails-runtime.module';
import { GuardrailsAdminEnv, guardrailsApiConfig } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'guardrails-admin',
      env: GuardrailsAdminEnv,
      database: { defaultName: 'guardrails', entities, migrations },
    }),
    GuardrailsRuntimeModule,
    ...GuardrailsApiModule.register(guardrailsApiConfig()),
  ],
})
export class AppModule {}
