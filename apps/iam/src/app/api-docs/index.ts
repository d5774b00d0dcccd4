export * from './decorators';
export * from './error-bodies';
