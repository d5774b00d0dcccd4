import { FakeAnthropicServer } from '@platform/testing';
import { AnthropicProvider } from './anthropic.provider';
import { LlmConfigError, LlmRequest, LlmUnavailableError } from './provider';

const request: LlmRequest = {
  purpose: 'kb.answer',
  prompt: 'Answer from the sources.',
  payload: { q: 'why' },
  max_tokens: 200,
};
const SYSTEM = 'Answer from the sources.\nPurpose: kb.answer. Answer with one JSON object.';

async function failureOf(p: Promise<unknown>): Promise<LlmUnavailableError> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(LlmUnavailableError);
  return outcome as LlmUnavailableError;
}

describe('AnthropicProvider against a real local Messages server', () => {
  let server: FakeAnthropicServer;
  const provider = (extra: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
    new AnthropicProvider({ baseUrl: server.url, model: 'claude-tiny', ...extra });

  beforeEach(async () => {
    server = await new FakeAnthropicServer().start();
  });
  afterEach(() => server.stop());

  it('posts the system prompt, payload and token limit with the key and API version', async () => {
    server.reply({ content: '{"answer":"ok"}', input_tokens: 30, output_tokens: 5 });
    const reply = await provider({ apiKey: 'ak-1', baseUrl: `${server.url}/` }).complete(request);

    expect(reply).toEqual({ text: '{"answer":"ok"}', data: { answer: 'ok' }, tokens_used: 35 });
    const call = server.calls[0];
    expect(call.path).toBe('/v1/messages');
    expect(call.headers['x-api-key']).toBe('ak-1');
    expect(call.headers['anthropic-version']).toBe('2023-06-01');
    expect(call.headers.authorization).toBeUndefined();
    expect(call.body).toMatchObject({ model: 'claude-tiny', max_tokens: 200, system: SYSTEM });
    expect(call.body.messages).toEqual([{ role: 'user', content: '{"q":"why"}' }]);
  });

  it('sends no key header without a key, and the configured API version', async () => {
    await provider({ apiVersion: '2099-01-01' }).complete(request);
    expect(server.calls[0].headers['x-api-key']).toBeUndefined();
    expect(server.calls[0].headers['anthropic-version']).toBe('2099-01-01');
  });

  it('joins text blocks, parses fenced JSON, and gives data null for prose', async () => {
    server.reply(
      { content: '```json\n{"ok":true}\n```' },
      {
        rawBody: JSON.stringify({
          content: [
            { type: 'text', text: '{"parts":' },
            { type: 'tool_use', id: 't', name: 'x', input: {} },
            { type: 'text', text: '2}' },
          ],
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      },
      { content: 'I cannot help with that.' },
    );
    expect((await provider().complete(request)).data).toEqual({ ok: true });
    expect((await provider().complete(request)).data).toEqual({ parts: 2 });
    expect(await provider().complete(request)).toMatchObject({
      text: 'I cannot help with that.',
      data: null,
    });
  });

  it('estimates tokens when the server reports no usable usage', async () => {
    server.reply({ rawBody: JSON.stringify({ content: [{ type: 'text', text: '{}' }] }) });
    const estimate = Math.ceil((SYSTEM.length + '{"q":"why"}'.length + '{}'.length) / 4);
    expect((await provider().complete(request)).tokens_used).toBe(estimate);
  });

  it('reports an error status without quoting the body', async () => {
    server.reply({ status: 529 });
    const e = await failureOf(provider().complete(request));
    expect(e.kind).toBe('http_status');
    expect(e.message).toBe('LLM provider answered HTTP 529.');
  });

  it('reports replies that are not Messages replies', async () => {
    server.reply(
      { rawBody: 'not json' },
      { rawBody: '{"content":[]}' },
      { rawBody: '{"content":[{"type":"tool_use","id":"t","name":"x","input":{}}]}' },
    );
    for (let i = 0; i < 3; i++) {
      expect((await failureOf(provider().complete(request))).kind).toBe('bad_reply');
    }
  });

  it('gives up after its own timeout, and at once when the caller aborts', async () => {
    server.reply({ delayMs: 2000 }, { delayMs: 2000 });
    expect((await failureOf(provider({ timeoutMs: 50 }).complete(request))).kind).toBe('timeout');

    const caller = new AbortController();
    const pending = provider().complete({ ...request, signal: caller.signal });
    setTimeout(() => caller.abort(), 20);
    expect((await failureOf(pending)).kind).toBe('aborted');
  });

  it('reports a refused connection as a network failure', async () => {
    const url = server.url;
    await server.stop();
    const e = await failureOf(new AnthropicProvider({ baseUrl: url, model: 'm' }).complete(request));
    expect(e.kind).toBe('network');
    server = await new FakeAnthropicServer().start();
  });

  it('refuses unusable options when built', () => {
    expect(() => new AnthropicProvider({ baseUrl: 'nope', model: 'm' })).toThrow(LlmConfigError);
    expect(() => new AnthropicProvider({ baseUrl: 'ftp://x.test', model: 'm' })).toThrow(
      /must use http or https/,
    );
    expect(() => new AnthropicProvider({ baseUrl: server.url, model: ' ' })).toThrow(/model/);
    expect(
      () => new AnthropicProvider({ baseUrl: server.url, model: 'm', timeoutMs: 0 }),
    ).toThrow(/timeout/);
  });
});
