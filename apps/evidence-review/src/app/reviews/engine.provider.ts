import { Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createReviewEngine, EngineConfig, ReviewEngine } from '@platform/evidence-engine';
import { OpenAiCompatibleProvider } from '@platform/llm';

/** The review engine built from config once at start; a bad config stops the app with its message. */
export const reviewEngineProvider: Provider = {
  provide: ReviewEngine,
  inject: [ConfigService],
  useFactory: (config: ConfigService) => {
    const raw = config.get<string>('EVIDENCE_ENGINE_CONFIG');
    let engineConfig: EngineConfig = {};
    if (raw) {
      try {
        engineConfig = JSON.parse(raw) as EngineConfig;
      } catch {
        throw new Error('EVIDENCE_ENGINE_CONFIG is not valid JSON');
      }
    }
    const llmEnabled = config.get<boolean>('EVIDENCE_LLM_ENABLED') === true;
    const baseUrl = config.get<string>('EVIDENCE_LLM_BASE_URL');
    const model = config.get<string>('EVIDENCE_LLM_MODEL');
    if (llmEnabled && (!baseUrl || !model)) throw new Error('EVIDENCE_LLM_ENABLED needs EVIDENCE_LLM_BASE_URL and EVIDENCE_LLM_MODEL');
    return createReviewEngine(
      { ...engineConfig, llm: { enabled: llmEnabled } },
      { llm: llmEnabled ? new OpenAiCompatibleProvider({ baseUrl: baseUrl!, model: model!, apiKey: config.get('EVIDENCE_LLM_API_KEY') }) : undefined },
    );
  },
};
