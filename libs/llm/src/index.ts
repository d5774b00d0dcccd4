export * from './provider';
export * from './openai-compatible.provider';
