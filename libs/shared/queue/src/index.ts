export * from './redis';
export * from './job-options';
export * from './redis.module';
export * from './queue.module';
export * from './invalidated-cache';
export * from './rate-counter';
