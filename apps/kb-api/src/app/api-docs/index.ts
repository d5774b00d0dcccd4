export * from './decorators';
export * from './error-bodies';
export * from './params';
export * from './schema';
export * from './property-schema';
