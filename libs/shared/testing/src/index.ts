export * from './jwks-issuer';
export * from './test-database';
export * from './service-suite';
export * from './fake-openai-server';
export * from './fake-anthropic-server';
export * from './registered-routes';
export * from './filter-server';
