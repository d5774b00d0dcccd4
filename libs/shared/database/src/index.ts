export * from './snake-naming.strategy';
export * from './data-source';
export * from './query-rows';
