import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { GuardrailsApiModule } from './app/api/guardrails-api.module';
import { GuardrailsRuntimeModule } from './app/runtime/guardrails-runtime.module';
import { GuardrailsAdminEnv } from './config/env';
import { GuardrailsAdminConfig, GuardrailsAdminConfigModule } from './config/guardrails-admin-config';
import { DEFAULT_DATABASE_NAME, entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'guardrails-admin',
      env: GuardrailsAdminEnv,
      database: { defaultName: DEFAULT_DATABASE_NAME, entities, migrations },
    }),
    GuardrailsAdminConfigModule,
    GuardrailsRuntimeModule,
    // Whether and where the API routes exist is read once, when the module graph is built.
    ...GuardrailsApiModule.register(GuardrailsAdminConfig.load().api),
  ],
})
export class AppModule {}
