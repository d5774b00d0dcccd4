import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { KbApiEnv } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'kb-api',
      env: KbApiEnv,
      database: { defaultName: 'kb', entities, migrations },
    }),
  ],
})
export class AppModule {}
