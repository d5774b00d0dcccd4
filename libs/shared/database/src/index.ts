export * from './snake-naming.strategy';
export * from './data-source';
export * from './query-rows';
export * from './tenant-row-security';
export * from './repeated-statements';
