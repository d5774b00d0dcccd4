import { LlmProvider, LlmReply, LlmRequest, LlmUnavailableError } from './provider';

export interface OpenAiCompatibleOptions {
  /** e.g. https://api.example.com/v1 — `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Any server speaking the OpenAI chat-completions shape, asked for a JSON object reply. */
export class OpenAiCompatibleProvider implements LlmProvider {
  readonly name = 'openai-compatible';

  constructor(private readonly options: OpenAiCompatibleOptions) {}

  get model(): string {
    return this.options.model;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          max_tokens: request.max_tokens,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: `${request.prompt}\nPurpose: ${request.purpose}. Answer with one JSON object.` },
            { role: 'user', content: JSON.stringify(request.payload) },
          ],
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new LlmUnavailableError(`request failed: ${(e as Error).message}`);
    }
    if (!response.ok) throw new LlmUnavailableError(`provider answered ${response.status}`);
    const body = (await response.json().catch(() => null)) as {
      choices?: Array<{ message?: { content?: unknown } }>;
      usage?: { total_tokens?: unknown };
    } | null;
    const text = body?.choices?.[0]?.message?.content;
    if (typeof text !== 'string') throw new LlmUnavailableError('provider reply has no message content');
    const tokens = body?.usage?.total_tokens;
    return { text, data: parseJson(text), tokens_used: typeof tokens === 'number' && tokens >= 0 ? tokens : 0 };
  }
}
