import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createLlmProvider, LlmProvider } from '@platform/llm';
import { kbEnv } from '../kb-config';

/** The model that answers, or null for the `none` provider (extractive answers, no tokens). */
@Injectable()
export class AnswerProvider {
  readonly llm: LlmProvider | null;

  constructor(config: ConfigService) {
    const env = kbEnv(config);
    if (env.get('KB_CHAT_PROVIDER') === 'none') {
      this.llm = null;
      return;
    }
    const baseUrl = env.get('KB_LLM_BASE_URL');
    const model = env.get('KB_LLM_MODEL');
    if (!baseUrl || !model) throw new Error('KB_CHAT_PROVIDER=openai needs KB_LLM_BASE_URL and KB_LLM_MODEL');
    this.llm = createLlmProvider({ provider: 'openai-compatible', base_url: baseUrl, api_key: env.get('KB_LLM_API_KEY'), model, timeout_ms: env.get('KB_LLM_TIMEOUT_MS') });
  }
}
