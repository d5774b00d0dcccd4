import { estimateTokens, parseJsonReply } from './json-reply';
import { httpProviderConfig, postJson } from './json-http-call';
import { LlmProvider, LlmReply, LlmRequest, LlmUnavailableError } from './provider';

export interface AnthropicOptions {
  /** The API root, e.g. `https://llm.example.com`; `/v1/messages` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per-call limit; the caller's own signal can cut a call shorter. Default 30 s. */
  timeoutMs?: number;
  /** The `anthropic-version` header the server expects. */
  apiVersion?: string;
}

interface MessagesBody {
  content?: Array<{ type?: unknown; text?: unknown }>;
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

const DEFAULT_API_VERSION = '2023-06-01';
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** The reply's text blocks joined; other block kinds (e.g. tool use) carry no answer text. */
function replyText(content: MessagesBody['content']): string | null {
  if (!Array.isArray(content)) return null;
  const texts = content.filter(
    (b): b is { type: 'text'; text: string } =>
      typeof b === 'object' && b !== null && b.type === 'text' && typeof b.text === 'string',
  );
  return texts.length ? texts.map((b) => b.text).join('') : null;
}

/** A server speaking the Anthropic Messages shape, asked for one JSON object. */
export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic';
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: AnthropicOptions) {
    ({ endpoint: this.endpoint, timeoutMs: this.timeoutMs } = httpProviderConfig(options, '/v1/messages'));
  }

  get model(): string {
    return this.options.model;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const system = `${request.prompt}\nPurpose: ${request.purpose}. Answer with one JSON object.`;
    const user = JSON.stringify(request.payload ?? null);
    const body = await postJson<MessagesBody>(
      this.endpoint,
      {
        'anthropic-version': this.options.apiVersion ?? DEFAULT_API_VERSION,
        ...(this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {}),
      },
      { model: this.options.model, max_tokens: request.max_tokens, temperature: 0, system, messages: [{ role: 'user', content: user }] },
      this.timeoutMs,
      request.signal,
    );
    const text = replyText(body?.content);
    if (text === null)
      throw new LlmUnavailableError('LLM provider reply has no text content.', 'bad_reply');
    const usage = body?.usage;
    return {
      text,
      data: parseJsonReply(text),
      tokens_used:
        isCount(usage?.input_tokens) && isCount(usage?.output_tokens)
          ? Math.floor(usage.input_tokens + usage.output_tokens)
          : estimateTokens(system, user, text),
    };
  }
}
