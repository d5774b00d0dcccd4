import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { EvidenceReviewEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [];

export function dataSourceOptions(env: EvidenceReviewEnv): DataSourceOptions {
  return buildDataSourceOptions({
    url: env.DATABASE_URL,
    database: env.DATABASE_NAME ?? 'evidence',
    entities,
    migrations,
  });
}
