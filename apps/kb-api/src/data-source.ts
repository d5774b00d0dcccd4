import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { KbApiEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [];

export function dataSourceOptions(env: Pick<KbApiEnv, 'DATABASE_URL' | 'DATABASE_NAME' | 'DATABASE_PREPARE_AFTER'>): DataSourceOptions {
  return buildDataSourceOptions({
    url: env.DATABASE_URL,
    database: env.DATABASE_NAME ?? 'kb',
    entities,
    migrations,
    prepareAfter: env.DATABASE_PREPARE_AFTER,
  });
}
