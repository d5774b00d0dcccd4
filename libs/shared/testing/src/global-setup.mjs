// Jest global setup for every project: makes sure DATABASE_URL and REDIS_URL point at a real
// Postgres and Redis. `npm test` provisions them once and passes them in; a lone `nx test <app>`
// provisions here (local servers, else embedded Postgres and a spawned redis-server).
import { provisionInfra } from '../../../../tools/dev/infra.mjs';

export default async function globalSetup() {
  if (process.env.DATABASE_URL && process.env.REDIS_URL) return;
  const infra = await provisionInfra({ purpose: 'test' });
  process.env.DATABASE_URL = infra.databaseUrl;
  process.env.REDIS_URL = infra.redisUrl;
  globalThis.__PLATFORM_INFRA__ = infra;
}
