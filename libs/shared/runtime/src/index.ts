export * from './http-app';
export * from './http-processes';
export * from './worker-app';
export * from './cli';
export * from './platform.module';
export * from './fast-routes';
export * from './edge-hygiene';
export * from './outbound';
