import { Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ReviewEngine } from '@platform/evidence-engine';
import { EvidenceReviewEnv } from '../../config/env';
import { buildReviewEngine } from './build-engine';

/** The review engine built from config once at start; a bad config stops the app with its message. */
export const reviewEngineProvider: Provider = {
  provide: ReviewEngine,
  inject: [ConfigService],
  useFactory: (config: ConfigService<EvidenceReviewEnv, true>) =>
    buildReviewEngine({
      EVIDENCE_ENGINE_CONFIG: config.get('EVIDENCE_ENGINE_CONFIG', { infer: true }),
      EVIDENCE_LLM_ENABLED: config.get('EVIDENCE_LLM_ENABLED', { infer: true }),
      EVIDENCE_LLM_BASE_URL: config.get('EVIDENCE_LLM_BASE_URL', { infer: true }),
      EVIDENCE_LLM_MODEL: config.get('EVIDENCE_LLM_MODEL', { infer: true }),
      EVIDENCE_LLM_API_KEY: config.get('EVIDENCE_LLM_API_KEY', { infer: true }),
    }),
};
