import { estimateTokens, parseJsonReply } from './json-reply';
import { LlmConfigError, LlmProvider, LlmReply, LlmRequest, LlmUnavailableError } from './provider';

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

const DEFAULT_TIMEOUT_MS = 30_000;
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
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/v1/messages`;
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
          'anthropic-version': this.options.apiVersion ?? DEFAULT_API_VERSION,
          ...(this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          max_tokens: request.max_tokens,
          temperature: 0,
          system,
          messages: [{ role: 'user', content: user }],
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
    let body: MessagesBody | null;
    try {
      body = JSON.parse(raw) as MessagesBody | null;
    } catch {
      throw new LlmUnavailableError('LLM provider reply is not JSON.', 'bad_reply');
    }
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
