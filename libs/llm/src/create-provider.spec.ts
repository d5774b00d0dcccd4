import { AnthropicProvider } from './anthropic.provider';
import { createLlmProvider, LlmProviderConfig } from './create-provider';
import { NoneLlmProvider } from './none.provider';
import { OpenAiCompatibleProvider } from './openai-compatible.provider';
import { LlmConfigError } from './provider';

describe('createLlmProvider', () => {
  it('defaults to the none provider, which answers nothing and costs no tokens', async () => {
    const provider = createLlmProvider();
    expect(provider).toBeInstanceOf(NoneLlmProvider);
    expect(provider.name).toBe('none');
    await expect(
      provider.complete({ purpose: 'p', prompt: 'x', payload: {}, max_tokens: 10 }),
    ).resolves.toEqual({ text: '', data: null, tokens_used: 0 });
  });

  it('builds an OpenAI-compatible provider from snake_case config', () => {
    const provider = createLlmProvider({
      provider: 'openai-compatible',
      base_url: 'http://127.0.0.1:1/v1',
      model: 'small',
      api_key: 'k',
      timeout_ms: 500,
    });
    expect(provider).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(provider.model).toBe('small');
  });

  it('builds an Anthropic provider from snake_case config', () => {
    const provider = createLlmProvider({
      provider: 'anthropic',
      base_url: 'http://127.0.0.1:1',
      model: 'claude-small',
      api_key: 'k',
      timeout_ms: 500,
    });
    expect(provider).toBeInstanceOf(AnthropicProvider);
    expect(provider.name).toBe('anthropic');
    expect(provider.model).toBe('claude-small');
  });

  it('names an unknown provider', () => {
    expect(() => createLlmProvider({ provider: 'oracle' } as unknown as LlmProviderConfig)).toThrow(
      new LlmConfigError('Unknown LLM provider [oracle].'),
    );
  });
});
