export * from './jwks-issuer';
export * from './test-database';
