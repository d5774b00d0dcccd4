export * from './scopes';
export * from './queues';
export * from './tokens';
export * from './services';
export * from './rate-limit-headers';
