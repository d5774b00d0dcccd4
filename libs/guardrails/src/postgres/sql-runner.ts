import { DataSource, QueryRunner } from 'typeorm';
import { SqlRunner, TransactionalSqlRunner } from './tables';

// TypeORM's plain query() answers UPDATE/DELETE … RETURNING with [rows, count]; the structured
// result gives every statement's rows the same way.
const rowsOf = async <T>(runner: QueryRunner, sql: string, params?: unknown[]) => (await runner.query(sql, params, true)).records as T[];

/** The stores' SQL surface over a TypeORM DataSource (the platform's connection pool). */
export function sqlRunnerFor(dataSource: DataSource): TransactionalSqlRunner {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const runner = dataSource.createQueryRunner();
      try {
        return await rowsOf<T>(runner, sql, params);
      } finally {
        await runner.release();
      }
    },
    transaction: <T>(work: (tx: SqlRunner) => Promise<T>) =>
      dataSource.transaction((em) => work({ query: <R>(sql: string, params?: unknown[]) => rowsOf<R>(em.queryRunner!, sql, params) })),
  };
}
