import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { EvidenceReviewEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [];

/** The database's name on the server when DATABASE_NAME is not set. */
export const DEFAULT_DATABASE_NAME = 'evidence';

export function dataSourceOptions(env: Pick<EvidenceReviewEnv, 'DATABASE_URL' | 'DATABASE_NAME' | 'DATABASE_PREPARE_AFTER'>): DataSourceOptions {
  return buildDataSourceOptions({
    url: env.DATABASE_URL,
    database: env.DATABASE_NAME ?? DEFAULT_DATABASE_NAME,
    entities,
    migrations,
    prepareAfter: env.DATABASE_PREPARE_AFTER,
  });
}
