import { Injectable } from '@nestjs/common';
import { createLlmProvider, LlmProvider } from '@platform/llm';
import { KbConfig } from '../../config/kb-config';

/** The model that answers, or null for the `none` provider (extractive answers, no tokens). */
@Injectable()
export class AnswerProvider {
  /** The configured KB_CHAT_PROVIDER, reported as `meta.provider` and in the chat log. */
  readonly name: 'none' | 'openai' | 'anthropic';
  readonly llm: LlmProvider | null;

  constructor(config: KbConfig) {
    this.name = config.get('KB_CHAT_PROVIDER');
    if (this.name === 'none') {
      this.llm = null;
      return;
    }
    const baseUrl = config.get('KB_LLM_BASE_URL');
    const model = config.get('KB_LLM_MODEL');
    if (!baseUrl || !model) throw new Error(`KB_CHAT_PROVIDER=${this.name} needs KB_LLM_BASE_URL and KB_LLM_MODEL`);
    const binding = { base_url: baseUrl, api_key: config.get('KB_LLM_API_KEY'), model, timeout_ms: config.get('KB_LLM_TIMEOUT_MS') };
    this.llm = createLlmProvider(this.name === 'anthropic' ? { provider: 'anthropic', ...binding } : { provider: 'openai-compatible', ...binding });
  }
}
