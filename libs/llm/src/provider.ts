/** One request to a language model: a system prompt plus a JSON payload, answered in JSON. */
export interface LlmRequest {
  purpose: string;
  prompt: string;
  payload: unknown;
  max_tokens: number;
}

export interface LlmReply {
  /** The model's raw text. */
  text: string;
  /** The text parsed as JSON, or null when it is not JSON. */
  data: unknown;
  tokens_used: number;
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmReply>;
}

/** The provider could not be reached or failed (adapters answer 503). */
export class LlmUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmUnavailableError';
  }
}

/** The default: no model configured. Calling it is a wiring error, never a silent no-op. */
export class NoLlmProvider implements LlmProvider {
  readonly name = 'none';
  readonly model = 'none';

  async complete(): Promise<LlmReply> {
    throw new LlmUnavailableError('no language model is configured');
  }
}
