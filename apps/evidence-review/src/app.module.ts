import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { EvidenceReviewEnv } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'evidence-review',
      env: EvidenceReviewEnv,
      database: { defaultName: 'evidence', entities, migrations },
    }),
  ],
})
export class AppModule {}
