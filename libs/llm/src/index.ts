export * from './provider';
export * from './none.provider';
export * from './openai-compatible.provider';
export * from './anthropic.provider';
export * from './create-provider';
export { parseJsonReply, estimateTokens } from './json-reply';
export * from './embeddings';
export { FakeEmbeddingsServer, bagOfConceptsEmbedding } from './embeddings-fake-server';
