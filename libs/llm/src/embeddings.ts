import { httpProviderConfig, postJson } from './json-http-call';
import { LlmConfigError, LlmUnavailableError } from './provider';

/** The port every embedding binding implements: texts in, one vector per text out (same order). */
export interface EmbeddingsProvider {
  readonly name: string;
  /** Stored with each vector: vectors of different models are never compared. */
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface OpenAiCompatibleEmbeddingsOptions {
  /** The API root, e.g. `https://llm.example.com/v1`; `/embeddings` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per-request limit (one batch); the caller's own signal can cut it shorter. Default 30 s. */
  timeoutMs?: number;
  /** Texts sent in one request; providers cap the inputs per call. Default 64. */
  batchSize?: number;
  /** Asks models that can shorten their vectors (`dimensions`); unset sends nothing. */
  dimensions?: number;
}

interface EmbeddingsBody {
  data?: Array<{ index?: unknown; embedding?: unknown }>;
}

const DEFAULT_BATCH = 64;
const MAX_BATCH = 2048;

const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/** Any server speaking the OpenAI `/v1/embeddings` shape (OpenAI, vLLM, Ollama, LiteLLM, TEI...). */
export class OpenAiCompatibleEmbeddings implements EmbeddingsProvider {
  readonly name = 'openai-compatible';
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly batchSize: number;

  constructor(private readonly options: OpenAiCompatibleEmbeddingsOptions) {
    ({ endpoint: this.endpoint, timeoutMs: this.timeoutMs } = httpProviderConfig(options, '/embeddings'));
    this.batchSize = options.batchSize ?? DEFAULT_BATCH;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > MAX_BATCH) {
      throw new LlmConfigError(`Embeddings batch size must be a whole number from 1 to ${MAX_BATCH}.`);
    }
    if (options.dimensions !== undefined && (!Number.isInteger(options.dimensions) || options.dimensions < 1)) {
      throw new LlmConfigError('Embeddings dimensions must be a positive whole number.');
    }
  }

  get model(): string {
    return this.options.model;
  }

  /** Batches run one after another: a large document never floods the provider with parallel calls. */
  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    const batches = Math.ceil(texts.length / this.batchSize);
    for (let b = 0; b < batches; b++) {
      const input = texts.slice(b * this.batchSize, (b + 1) * this.batchSize);
      try {
        vectors.push(...(await this.embedBatch(input, signal)));
      } catch (e) {
        if (!(e instanceof LlmUnavailableError)) throw e;
        throw new LlmUnavailableError(`Embeddings batch ${b + 1} of ${batches} failed: ${e.message}`, e.kind);
      }
    }
    const dims = vectors[0]?.length;
    if (vectors.some((v) => v.length !== dims)) {
      throw new LlmUnavailableError('Embeddings provider answered vectors of different lengths.', 'bad_reply');
    }
    return vectors;
  }

  private async embedBatch(input: string[], signal?: AbortSignal): Promise<number[][]> {
    const body = await postJson<EmbeddingsBody>(
      this.endpoint,
      this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      { model: this.options.model, input, encoding_format: 'float', ...(this.options.dimensions ? { dimensions: this.options.dimensions } : {}) },
      this.timeoutMs,
      signal,
    );
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new LlmUnavailableError(`Embeddings provider answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} texts.`, 'bad_reply');
    }
    // Replies carry each vector's input index; servers are free to answer out of order.
    const out = new Array<number[]>(input.length);
    data.forEach((item, position) => {
      const index = item.index === undefined ? position : item.index;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= input.length || out[index]) {
        throw new LlmUnavailableError('Embeddings provider reply has a missing or repeated index.', 'bad_reply');
      }
      if (!isVector(item.embedding)) throw new LlmUnavailableError('Embeddings provider reply has a vector that is not a list of numbers.', 'bad_reply');
      out[index] = item.embedding;
    });
    return out;
  }
}

/** How a host names its embedding binding in config; absent means `none` (no vectors). */
export type EmbeddingsProviderConfig =
  | { provider: 'none' }
  | { provider: 'openai-compatible'; base_url: string; api_key?: string; model: string; timeout_ms?: number; batch_size?: number; dimensions?: number };

/** The configured provider, null for `none`; bad config throws LlmConfigError naming it (at start). */
export function createEmbeddingsProvider(config: EmbeddingsProviderConfig = { provider: 'none' }): EmbeddingsProvider | null {
  switch (config.provider) {
    case 'none':
      return null;
    case 'openai-compatible':
      return new OpenAiCompatibleEmbeddings({
        baseUrl: config.base_url,
        apiKey: config.api_key,
        model: config.model,
        timeoutMs: config.timeout_ms,
        batchSize: config.batch_size,
        dimensions: config.dimensions,
      });
    default:
      throw new LlmConfigError(`Unknown embeddings provider [${String((config as { provider?: unknown }).provider)}].`);
  }
}
