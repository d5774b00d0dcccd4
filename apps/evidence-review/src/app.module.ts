import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { ReviewsModule } from './app/reviews/reviews.module';
import { EvidenceReviewEnv, reviewApiEnabled } from './config/env';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'evidence-review',
      env: EvidenceReviewEnv,
      database: { defaultName: 'evidence', entities, migrations },
    }),
    ReviewsModule.register(reviewApiEnabled()),
  ],
})
export class AppModule {}
