export * from './edge-hygiene';
export * from './text-checks';
export * from './client-error';
