/** Nest injection token for the shared ioredis client (provided by @platform/queue's RedisModule). */
export const REDIS_CLIENT = Symbol.for('platform.REDIS_CLIENT');
