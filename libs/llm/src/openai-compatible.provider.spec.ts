import { FakeOpenAiServer } from '@platform/testing';
import { OpenAiCompatibleProvider } from './openai-compatible.provider';
import { LlmUnavailableError, NoLlmProvider } from './provider';

describe('OpenAiCompatibleProvider against a real local server', () => {
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.stop());

  it('sends the prompt and payload and parses a JSON reply with token usage', async () => {
    server.reply({ content: '{"findings":[]}', tokens: 321 });
    const provider = new OpenAiCompatibleProvider({ baseUrl: server.url, apiKey: 'k-1', model: 'tiny' });
    const reply = await provider.complete({ purpose: 'p', prompt: 'Review.', payload: { a: 1 }, max_tokens: 100 });
    expect(reply).toEqual({ text: '{"findings":[]}', data: { findings: [] }, tokens_used: 321 });
    expect(server.calls[0]).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer k-1', body: { model: 'tiny', max_tokens: 100 } });
    expect(server.calls[0].body.messages[1].content).toBe('{"a":1}');
  });

  it('returns data null for a non-JSON reply', async () => {
    server.reply({ content: 'not json' });
    const reply = await new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' }).complete({ purpose: 'p', prompt: 'x', payload: {}, max_tokens: 1 });
    expect(reply.data).toBeNull();
  });

  it('reports an unavailable provider for error statuses, timeouts and refused connections', async () => {
    server.reply({ status: 503 });
    await expect(new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'm' }).complete({ purpose: 'p', prompt: 'x', payload: {}, max_tokens: 1 })).rejects.toBeInstanceOf(LlmUnavailableError);
    await expect(new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }).complete({ purpose: 'p', prompt: 'x', payload: {}, max_tokens: 1 })).rejects.toBeInstanceOf(LlmUnavailableError);
    await expect(new NoLlmProvider().complete()).rejects.toBeInstanceOf(LlmUnavailableError);
  });
});
