import { LlmConfigError, LlmUnavailableError } from './provider';

const DEFAULT_TIMEOUT_MS = 30_000;

/** The checked endpoint and time limit of an HTTP provider (bad config fails at start, naming it). */
export function httpProviderConfig(o: { baseUrl: string; model: string; timeoutMs?: number }, path: string): { endpoint: string; timeoutMs: number } {
  let url: URL;
  try {
    url = new URL(o.baseUrl);
  } catch {
    throw new LlmConfigError(`LLM base URL [${o.baseUrl}] is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LlmConfigError(`LLM base URL [${o.baseUrl}] must use http or https.`);
  }
  if (typeof o.model !== 'string' || o.model.trim() === '') {
    throw new LlmConfigError('LLM model must be a non-empty string.');
  }
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new LlmConfigError('LLM timeout must be a positive whole number of milliseconds.');
  }
  return { endpoint: `${o.baseUrl.replace(/\/+$/, '')}${path}`, timeoutMs };
}

/**
 * POSTs a JSON body and returns the parsed JSON reply; every failure becomes an LlmUnavailableError
 * of the right kind (the caller's abort, the time limit, the network, an HTTP status, not JSON).
 */
export async function postJson<T>(endpoint: string, headers: Record<string, string>, body: unknown, timeoutMs: number, callerSignal?: AbortSignal): Promise<T | null> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
  let status: number;
  let raw: string;
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    status = response.status;
    raw = await response.text();
  } catch (e) {
    if (callerSignal?.aborted) throw new LlmUnavailableError('LLM call aborted by the caller.', 'aborted');
    if (timeout.aborted) throw new LlmUnavailableError(`LLM call timed out after ${timeoutMs} ms.`, 'timeout');
    throw new LlmUnavailableError(`LLM request failed: ${(e as Error).message}`, 'network');
  }
  // The body of an error reply is not quoted: providers may echo the request or account details.
  if (status < 200 || status >= 300) throw new LlmUnavailableError(`LLM provider answered HTTP ${status}.`, 'http_status');
  try {
    return JSON.parse(raw) as T | null;
  } catch {
    throw new LlmUnavailableError('LLM provider reply is not JSON.', 'bad_reply');
  }
}
