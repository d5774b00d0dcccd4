import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { AnswerProvider } from '../chat/answer-provider';
import { IngestModule } from '../ingest/ingest.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { CandidateSuggester } from './candidate-suggester';
import { PromotionController } from './promotion.controller';
import { PromotionRepository } from './promotion.repository';
import { PromotionService } from './promotion.service';

/** Approval writes through the same IngestService as POST /api/kb/ingest (storage write plus IngestDocumentJob). */
@Module({
  imports: [IngestModule.api(), BullModule.registerQueue({ name: QUEUES.kbIngest }), NotificationsModule],
  controllers: [PromotionController],
  providers: [AnswerProvider, CandidateSuggester, PromotionRepository, PromotionService],
  exports: [CandidateSuggester],
})
export class PromotionModule {}
