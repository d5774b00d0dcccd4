export * from './edge-hygiene';
export * from './text-checks';
