export * from './snake-naming.strategy';
export * from './data-source';
