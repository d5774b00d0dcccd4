import { OpenAiCompatibleProvider } from './openai-compatible.provider';
import { LlmConfigError, LlmRequest, LlmUnavailableError } from './provider';
import { StubChatServer } from './testing/stub-chat-server';

const request: LlmRequest = {
  purpose: 'risk_check.test',
  prompt: 'Review these.',
  payload: { a: 1 },
  max_tokens: 100,
};

async function failureOf(p: Promise<unknown>): Promise<LlmUnavailableError> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(LlmUnavailableError);
  return outcome as LlmUnavailableError;
}

describe('OpenAiCompatibleProvider against a real local chat-completions server', () => {
  let server: StubChatServer;
  const provider = (
    extra: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {},
  ) => new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'tiny', ...extra });

  beforeEach(async () => {
    server = await new StubChatServer().start();
  });
  afterEach(() => server.stop());

  it('posts the prompt, purpose and JSON payload with the key, model and token limit', async () => {
    server.answer({ content: '{"findings":[]}', usage: { total_tokens: 321 } });
    const reply = await provider({ apiKey: 'k-1', baseUrl: `${server.url}/` }).complete(request);

    expect(reply).toEqual({ text: '{"findings":[]}', data: { findings: [] }, tokens_used: 321 });
    const call = server.calls[0];
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer k-1');
    expect(call.body).toMatchObject({
      model: 'tiny',
      max_tokens: 100,
      response_format: { type: 'json_object' },
    });
    expect(call.body.messages[0]).toEqual({
      role: 'system',
      content: 'Review these.\nPurpose: risk_check.test. Answer with one JSON object.',
    });
    expect(call.body.messages[1]).toEqual({ role: 'user', content: '{"a":1}' });
  });

  it('sends no authorization header without a key, and no response_format when JSON mode is off', async () => {
    await provider({ jsonMode: false }).complete(request);
    expect(server.calls[0].headers.authorization).toBeUndefined();
    expect(server.calls[0].body.response_format).toBeUndefined();
  });

  it('parses fenced JSON and content given as text parts; non-JSON text gives data null', async () => {
    server.answer(
      { content: '```json\n{"ok":true}\n```' },
      {
        content: [
          { type: 'text', text: '{"parts":' },
          { type: 'text', text: '2}' },
        ],
      },
      { content: 'I cannot help with that.' },
    );
    expect((await provider().complete(request)).data).toEqual({ ok: true });
    expect((await provider().complete(request)).data).toEqual({ parts: 2 });
    const prose = await provider().complete(request);
    expect(prose).toMatchObject({ text: 'I cannot help with that.', data: null });
  });

  it('adds prompt and completion tokens, or estimates them when the server reports no usage', async () => {
    server.answer(
      { content: '{}', usage: { prompt_tokens: 40, completion_tokens: 2 } },
      { content: '{}' },
      { content: '{}', usage: { total_tokens: -5 } },
    );
    expect((await provider().complete(request)).tokens_used).toBe(42);
    const system = 'Review these.\nPurpose: risk_check.test. Answer with one JSON object.';
    const estimate = Math.ceil((system.length + '{"a":1}'.length + '{}'.length) / 4);
    expect((await provider().complete(request)).tokens_used).toBe(estimate);
    expect((await provider().complete(request)).tokens_used).toBe(estimate);
  });

  it('reports an error status without quoting the body', async () => {
    server.answer({ status: 503, rawBody: '{"error":"secret account detail"}' });
    const e = await failureOf(provider().complete(request));
    expect(e.kind).toBe('http_status');
    expect(e.message).toBe('LLM provider answered HTTP 503.');
  });

  it('reports replies that are not chat completions', async () => {
    server.answer({ rawBody: 'not json' }, { rawBody: '{"choices":[]}' });
    expect((await failureOf(provider().complete(request))).kind).toBe('bad_reply');
    expect((await failureOf(provider().complete(request))).kind).toBe('bad_reply');
  });

  it('gives up after its own timeout, and at once when the caller aborts', async () => {
    server.answer({ content: '{}', delayMs: 2000 }, { content: '{}', delayMs: 2000 });
    expect((await failureOf(provider({ timeoutMs: 50 }).complete(request))).kind).toBe('timeout');

    const caller = new AbortController();
    const pending = provider().complete({ ...request, signal: caller.signal });
    setTimeout(() => caller.abort(), 20);
    expect((await failureOf(pending)).kind).toBe('aborted');
  });

  it('reports a refused connection as a network failure', async () => {
    const url = server.url;
    await server.stop();
    const e = await failureOf(
      new OpenAiCompatibleProvider({ baseUrl: url, model: 'm' }).complete(request),
    );
    expect(e.kind).toBe('network');
    server = await new StubChatServer().start();
  });

  it('refuses unusable options when built', () => {
    expect(() => new OpenAiCompatibleProvider({ baseUrl: 'nope', model: 'm' })).toThrow(
      LlmConfigError,
    );
    expect(() => new OpenAiCompatibleProvider({ baseUrl: 'ftp://x.test', model: 'm' })).toThrow(
      /must use http or https/,
    );
    expect(() => new OpenAiCompatibleProvider({ baseUrl: server.url, model: ' ' })).toThrow(
      /model/,
    );
    expect(
      () => new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'm', timeoutMs: 0 }),
    ).toThrow(/timeout/);
  });
});
