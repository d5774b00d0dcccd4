import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { ReviewsModule } from './app/reviews/reviews.module';
import { EvidenceReviewEnv } from './config/env';
import { EvidenceReviewConfig, EvidenceReviewConfigModule } from './config/evidence-review-config';
import { DEFAULT_DATABASE_NAME, entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'evidence-review',
      env: EvidenceReviewEnv,
      database: { defaultName: DEFAULT_DATABASE_NAME, entities, migrations },
    }),
    EvidenceReviewConfigModule,
    // Whether the routes exist is read once, when the module graph is built.
    ReviewsModule.register(EvidenceReviewConfig.load().apiEnabled),
  ],
})
export class AppModule {}
