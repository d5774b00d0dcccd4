import { createReviewEngine, EngineConfig, ReviewEngine } from '@platform/evidence-engine';
import { OpenAiCompatibleProvider } from '@platform/llm';
import type { EngineSettings } from '../../config/evidence-review-config';

/** The review engine from validated settings; a bad config throws with its reason (at start). */
export function buildReviewEngine(s: EngineSettings): ReviewEngine {
  let engineConfig: EngineConfig = {};
  if (s.EVIDENCE_ENGINE_CONFIG) {
    try {
      engineConfig = JSON.parse(s.EVIDENCE_ENGINE_CONFIG) as EngineConfig;
    } catch {
      throw new Error('EVIDENCE_ENGINE_CONFIG is not valid JSON');
    }
  }
  const llmEnabled = s.EVIDENCE_LLM_ENABLED === true;
  if (llmEnabled && (!s.EVIDENCE_LLM_BASE_URL || !s.EVIDENCE_LLM_MODEL)) {
    throw new Error('EVIDENCE_LLM_ENABLED needs EVIDENCE_LLM_BASE_URL and EVIDENCE_LLM_MODEL');
  }
  return createReviewEngine(
    { ...engineConfig, llm: { enabled: llmEnabled } },
    {
      llm: llmEnabled
        ? new OpenAiCompatibleProvider({ baseUrl: s.EVIDENCE_LLM_BASE_URL!, model: s.EVIDENCE_LLM_MODEL!, apiKey: s.EVIDENCE_LLM_API_KEY })
        : undefined,
    },
  );
}
