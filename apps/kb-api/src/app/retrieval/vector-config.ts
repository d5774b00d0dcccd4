import { createEmbeddingsProvider, EmbeddingsProvider } from '@platform/llm';
import type { KbConfig } from '../../config/kb-config';

export interface VectorConfig {
  /** Null when no provider is configured: retrieval and indexing stay lexical. */
  provider: EmbeddingsProvider | null;
  /** Cosine similarity from which a chunk found only by meaning grounds an answer. */
  minSimilarity: number;
}

/** The settings as named variables: the raw environment's strings or the validated config's values. */
type Env = Record<string, string | number | undefined>;

function intSetting(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * The embedding settings (KB_EMBEDDINGS_*, KB_VECTOR_MIN_SIMILARITY), checked when read so that a
 * bad value stops the process at start, naming the variable. The base URL and key fall back to the
 * chat model's (KB_LLM_BASE_URL, KB_LLM_API_KEY): one OpenAI-compatible account usually serves both.
 */
export function readVectorConfig(env: Env): VectorConfig {
  const kind = env['KB_EMBEDDINGS_PROVIDER'] || 'none';
  if (kind !== 'none' && kind !== 'openai') throw new Error('KB_EMBEDDINGS_PROVIDER must be one of: none, openai');
  const rawSimilarity = env['KB_VECTOR_MIN_SIMILARITY'];
  const minSimilarity = rawSimilarity === undefined || rawSimilarity === '' ? 0.5 : Number(rawSimilarity);
  if (!Number.isFinite(minSimilarity) || minSimilarity < 0 || minSimilarity > 1) throw new Error('KB_VECTOR_MIN_SIMILARITY must be a number from 0 to 1');
  const timeoutMs = intSetting(env, 'KB_EMBEDDINGS_TIMEOUT_MS', 100, 300_000);
  const batchSize = intSetting(env, 'KB_EMBEDDINGS_BATCH_SIZE', 1, 2048);
  const dimensions = intSetting(env, 'KB_EMBEDDINGS_DIMENSIONS', 1, 16_000);
  if (kind === 'none') return { provider: null, minSimilarity };
  const baseUrl = text(env['KB_EMBEDDINGS_BASE_URL']) || text(env['KB_LLM_BASE_URL']);
  const model = text(env['KB_EMBEDDINGS_MODEL']);
  if (!baseUrl || !model) throw new Error('KB_EMBEDDINGS_PROVIDER=openai needs KB_EMBEDDINGS_MODEL and KB_EMBEDDINGS_BASE_URL (or KB_LLM_BASE_URL)');
  const provider = createEmbeddingsProvider({
    provider: 'openai-compatible',
    base_url: baseUrl,
    api_key: text(env['KB_EMBEDDINGS_API_KEY']) || text(env['KB_LLM_API_KEY']) || undefined,
    model,
    timeout_ms: timeoutMs,
    batch_size: batchSize,
    dimensions,
  });
  return { provider, minSimilarity };
}

const text = (v: string | number | undefined) => (v === undefined ? undefined : String(v));

/** The variables readVectorConfig reads. */
const VECTOR_SETTINGS = [
  'KB_EMBEDDINGS_PROVIDER',
  'KB_EMBEDDINGS_BASE_URL',
  'KB_EMBEDDINGS_API_KEY',
  'KB_EMBEDDINGS_MODEL',
  'KB_EMBEDDINGS_DIMENSIONS',
  'KB_EMBEDDINGS_TIMEOUT_MS',
  'KB_EMBEDDINGS_BATCH_SIZE',
  'KB_VECTOR_MIN_SIMILARITY',
  'KB_LLM_BASE_URL',
  'KB_LLM_API_KEY',
] as const;

/** The embedding settings from kb-api's validated config. */
export function vectorConfigFrom(config: KbConfig): VectorConfig {
  return readVectorConfig(Object.fromEntries(VECTOR_SETTINGS.map((k) => [k, config.get(k) as string | number | undefined])));
}
