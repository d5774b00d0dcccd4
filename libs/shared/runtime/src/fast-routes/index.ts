export * from './fast-router';
export * from './nest-bridge';
export * from './mount-in-app';
export * from './app-body-parsers';
export * from './send-json';
