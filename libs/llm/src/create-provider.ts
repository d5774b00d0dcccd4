import { AnthropicProvider } from './anthropic.provider';
import { NoneLlmProvider } from './none.provider';
import { OpenAiCompatibleProvider } from './openai-compatible.provider';
import { LlmConfigError, LlmProvider } from './provider';

/** How a host names its model binding in config; absent means `none`. */
export type LlmProviderConfig =
  | { provider: 'none' }
  | {
      provider: 'openai-compatible';
      base_url: string;
      api_key?: string;
      model: string;
      timeout_ms?: number;
      json_mode?: boolean;
    }
  | {
      provider: 'anthropic';
      base_url: string;
      api_key?: string;
      model: string;
      timeout_ms?: number;
      api_version?: string;
    };

/** Builds the configured provider, or throws LlmConfigError naming what is wrong (at start). */
export function createLlmProvider(config: LlmProviderConfig = { provider: 'none' }): LlmProvider {
  switch (config.provider) {
    case 'none':
      return new NoneLlmProvider();
    case 'openai-compatible':
      return new OpenAiCompatibleProvider({
        baseUrl: config.base_url,
        apiKey: config.api_key,
        model: config.model,
        timeoutMs: config.timeout_ms,
        jsonMode: config.json_mode,
      });
    case 'anthropic':
      return new AnthropicProvider({
        baseUrl: config.base_url,
        apiKey: config.api_key,
        model: config.model,
        timeoutMs: config.timeout_ms,
        apiVersion: config.api_version,
      });
    default:
      throw new LlmConfigError(
        `Unknown LLM provider [${String((config as { provider?: unknown }).provider)}].`,
      );
  }
}
