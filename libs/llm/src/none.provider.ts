import { LlmProvider, LlmReply } from './provider';

/**
 * The default binding: there is no model. Every request gets an empty reply that costs no tokens,
 * so switching the LLM step on without binding a model changes nothing and spends nothing.
 */
export class NoneLlmProvider implements LlmProvider {
  readonly name = 'none';
  readonly model = 'none';

  async complete(): Promise<LlmReply> {
    return { text: '', data: null, tokens_used: 0 };
  }
}
