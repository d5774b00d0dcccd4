export * from './validate-env';
export * from './base-env';
