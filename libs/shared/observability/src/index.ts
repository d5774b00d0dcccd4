export * from './logging.module';
export * from './domain-error';
export * from './problem-details.filter';
export * from './validation';
export * from './metrics.module';
export * from './cluster-metrics';
export * from './data-exception';
export * from './dto-input';
