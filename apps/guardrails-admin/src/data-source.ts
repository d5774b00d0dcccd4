import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { GuardrailsAdminEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [];

/** The database's name on the server when DATABASE_NAME is not set. */
export const DEFAULT_DATABASE_NAME = 'guardrails';

export function dataSourceOptions(env: Pick<GuardrailsAdminEnv, 'DATABASE_URL' | 'DATABASE_NAME' | 'DATABASE_PREPARE_AFTER'>): DataSourceOptions {
  return buildDataSourceOptions({
    url: env.DATABASE_URL,
    database: env.DATABASE_NAME ?? DEFAULT_DATABASE_NAME,
    entities,
    migrations,
    prepareAfter: env.DATABASE_PREPARE_AFTER,
  });
}
