import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { TransactionalSqlRunner } from './tables';

/** The stores' SQL surface over a TypeORM DataSource (the platform's connection pool). */
export function sqlRunnerFor(dataSource: DataSource): TransactionalSqlRunner {
  return {
    query: <T>(sql: string, params?: unknown[]) => queryRows<T>(dataSource, sql, params),
    transaction: <T>(work: (tx: { query: <R>(sql: string, params?: unknown[]) => Promise<R[]> }) => Promise<T>) =>
      dataSource.transaction((em) => work({ query: <R>(sql: string, params?: unknown[]) => queryRows<R>(em, sql, params) })),
  };
}
