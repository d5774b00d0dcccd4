import { estimateTokens, parseJsonReply } from './json-reply';
import { httpProviderConfig, postJson } from './json-http-call';
import { LlmProvider, LlmReply, LlmRequest, LlmUnavailableError } from './provider';

export interface OpenAiCompatibleOptions {
  /** The API root, e.g. `https://llm.example.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per-call limit; the caller's own signal can cut a call shorter. Default 30 s. */
  timeoutMs?: number;
  /** Ask for `response_format: json_object` (default true); some servers reject the field. */
  jsonMode?: boolean;
}

interface ChatCompletionBody {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { total_tokens?: unknown; prompt_tokens?: unknown; completion_tokens?: unknown };
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** Message content is a string, or (newer servers) a list of typed parts. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.filter(
    (p): p is { text: string } => typeof p === 'object' && p !== null && typeof p.text === 'string',
  );
  return parts.length ? parts.map((p) => p.text).join('') : null;
}

function tokensUsed(usage: ChatCompletionBody['usage'], fallback: () => number): number {
  if (isCount(usage?.total_tokens)) return Math.floor(usage.total_tokens);
  if (isCount(usage?.prompt_tokens) && isCount(usage?.completion_tokens)) {
    return Math.floor(usage.prompt_tokens + usage.completion_tokens);
  }
  return fallback();
}

/** Any server speaking the OpenAI chat-completions shape, asked for one JSON object. */
export class OpenAiCompatibleProvider implements LlmProvider {
  readonly name = 'openai-compatible';
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    ({ endpoint: this.endpoint, timeoutMs: this.timeoutMs } = httpProviderConfig(options, '/chat/completions'));
  }

  get model(): string {
    return this.options.model;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const system = `${request.prompt}\nPurpose: ${request.purpose}. Answer with one JSON object.`;
    const user = JSON.stringify(request.payload ?? null);
    const body = await postJson<ChatCompletionBody>(
      this.endpoint,
      this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      {
        model: this.options.model,
        max_tokens: request.max_tokens,
        temperature: 0,
        ...(this.options.jsonMode === false ? {} : { response_format: { type: 'json_object' } }),
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      },
      this.timeoutMs,
      request.signal,
    );
    const text = contentText(body?.choices?.[0]?.message?.content);
    if (text === null)
      throw new LlmUnavailableError('LLM provider reply has no message content.', 'bad_reply');
    return {
      text,
      data: parseJsonReply(text),
      tokens_used: tokensUsed(body?.usage, () => estimateTokens(system, user, text)),
    };
  }
}
