import { estimateTokens, parseJsonReply } from './json-reply';
import { LlmConfigError, LlmProvider, LlmReply, LlmRequest, LlmUnavailableError } from './provider';

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

const DEFAULT_TIMEOUT_MS = 30_000;
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
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new LlmConfigError(`LLM base URL [${options.baseUrl}] is not a URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new LlmConfigError(`LLM base URL [${options.baseUrl}] must use http or https.`);
    }
    if (typeof options.model !== 'string' || options.model.trim() === '') {
      throw new LlmConfigError('LLM model must be a non-empty string.');
    }
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeout) || timeout <= 0) {
      throw new LlmConfigError('LLM timeout must be a positive whole number of milliseconds.');
    }
    this.timeoutMs = timeout;
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  get model(): string {
    return this.options.model;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const system = `${request.prompt}\nPurpose: ${request.purpose}. Answer with one JSON object.`;
    const user = JSON.stringify(request.payload ?? null);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    let status: number;
    let raw: string;
    try {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          max_tokens: request.max_tokens,
          temperature: 0,
          ...(this.options.jsonMode === false ? {} : { response_format: { type: 'json_object' } }),
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        }),
        signal,
      });
      status = response.status;
      raw = await response.text();
    } catch (e) {
      if (request.signal?.aborted)
        throw new LlmUnavailableError('LLM call aborted by the caller.', 'aborted');
      if (timeout.aborted)
        throw new LlmUnavailableError(`LLM call timed out after ${this.timeoutMs} ms.`, 'timeout');
      throw new LlmUnavailableError(`LLM request failed: ${(e as Error).message}`, 'network');
    }
    // The body of an error reply is not quoted: providers may echo the request or account details.
    if (status < 200 || status >= 300)
      throw new LlmUnavailableError(`LLM provider answered HTTP ${status}.`, 'http_status');
    let body: ChatCompletionBody | null;
    try {
      body = JSON.parse(raw) as ChatCompletionBody | null;
    } catch {
      throw new LlmUnavailableError('LLM provider reply is not JSON.', 'bad_reply');
    }
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
