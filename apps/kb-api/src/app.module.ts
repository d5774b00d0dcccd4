import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { KbAuthModule } from './app/auth/auth.module';
import { KbCryptoModule } from './app/kb-crypto.module';
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
    KbCryptoModule,
    KbAuthModule,
  ],
})
export class AppModule {}
