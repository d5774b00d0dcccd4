import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { IamEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [];

export function dataSourceOptions(env: IamEnv): DataSourceOptions {
  return buildDataSourceOptions({
    url: env.DATABASE_URL,
    database: env.DATABASE_NAME ?? 'iam',
    entities,
    migrations,
  });
}
