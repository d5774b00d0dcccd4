import { readVectorConfig } from './vector-config';

describe('readVectorConfig', () => {
  it('is off by default, with the default similarity floor', () => {
    expect(readVectorConfig({})).toEqual({ provider: null, minSimilarity: 0.5 });
  });

  it('builds the OpenAI-compatible client, falling back to the chat endpoint and key', () => {
    const { provider, minSimilarity } = readVectorConfig({
      KB_EMBEDDINGS_PROVIDER: 'openai',
      KB_EMBEDDINGS_MODEL: 'text-embedding-3-small',
      KB_LLM_BASE_URL: 'https://llm.example.com/v1',
      KB_LLM_API_KEY: 'k',
      KB_VECTOR_MIN_SIMILARITY: '0.3',
    });
    expect(provider?.model).toBe('text-embedding-3-small');
    expect(minSimilarity).toBe(0.3);
  });

  it.each([
    [{ KB_EMBEDDINGS_PROVIDER: 'cohere' }, 'KB_EMBEDDINGS_PROVIDER must be one of: none, openai'],
    [{ KB_EMBEDDINGS_PROVIDER: 'openai', KB_EMBEDDINGS_BASE_URL: 'http://e/v1' }, 'needs KB_EMBEDDINGS_MODEL'],
    [{ KB_EMBEDDINGS_PROVIDER: 'openai', KB_EMBEDDINGS_MODEL: 'm' }, 'KB_EMBEDDINGS_BASE_URL (or KB_LLM_BASE_URL)'],
    [{ KB_EMBEDDINGS_PROVIDER: 'openai', KB_EMBEDDINGS_MODEL: 'm', KB_EMBEDDINGS_BASE_URL: 'ftp://e' }, 'must use http or https'],
    [{ KB_VECTOR_MIN_SIMILARITY: '1.5' }, 'KB_VECTOR_MIN_SIMILARITY must be a number from 0 to 1'],
    [{ KB_EMBEDDINGS_TIMEOUT_MS: '50' }, 'KB_EMBEDDINGS_TIMEOUT_MS must be a whole number from 100 to 300000'],
    [{ KB_EMBEDDINGS_BATCH_SIZE: 'many' }, 'KB_EMBEDDINGS_BATCH_SIZE must be a whole number from 1 to 2048'],
    [{ KB_EMBEDDINGS_DIMENSIONS: '0' }, 'KB_EMBEDDINGS_DIMENSIONS must be a whole number from 1 to 16000'],
  ])('refuses %p', (env, message) => {
    expect(() => readVectorConfig(env)).toThrow(message);
  });
});
