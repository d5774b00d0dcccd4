import { buildDataSourceOptions } from '@platform/database';
import { DataSourceOptions } from 'typeorm';
import { OAuthClient } from './app/clients/oauth-client.entity';
import { SigningKey } from './app/keys/signing-key.entity';
import { IamEnv } from './config/env';
import { migrations } from './migrations';

export const entities: Function[] = [SigningKey, OAuthClient];

export function dataSourceOptions(env: IamEnv): DataSourceOptions {
  return buildDataSourceOptions({ url: env.DATABASE_URL, database: env.DATABASE_NAME ?? 'iam', entities, migrations, prepareAfter: env.DATABASE_PREPARE_AFTER });
}
