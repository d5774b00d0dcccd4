import { Provider } from '@nestjs/common';
import { ReviewEngine } from '@platform/evidence-engine';
import { EvidenceReviewConfig } from '../../config/evidence-review-config';
import { buildReviewEngine } from './build-engine';

/** The review engine built from config once at start; a bad config stops the app with its message. */
export const reviewEngineProvider: Provider = {
  provide: ReviewEngine,
  inject: [EvidenceReviewConfig],
  useFactory: (config: EvidenceReviewConfig) => buildReviewEngine(config.engine),
};
