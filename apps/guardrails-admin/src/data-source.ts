import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { GuardrailsAdminEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [];

export function dataSourceOptions(env: GuardrailsAdminEnv): DataSourceOptions {
  return buildDataSourceOptions({
    url: env.DATABASE_URL,
    database: env.DATABASE_NAME ?? 'guardrails',
    entities,
    migrations,
  });
}
