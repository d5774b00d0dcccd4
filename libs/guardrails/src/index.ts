export * from './delimited-pattern';
export * from './settings';
export * from './normalize';
export * from './bounded-matcher';
export * from './screen';
export * from './default-rules';
