import { DataSource, EntityManager } from 'typeorm';

/**
 * The rows a statement returns, whatever the statement: TypeORM's plain `query()` answers
 * UPDATE/DELETE … RETURNING with `[rows, affectedCount]`, its structured result never does.
 * Pass an EntityManager inside a transaction, the DataSource otherwise.
 */
export async function queryRows<T = Record<string, unknown>>(db: DataSource | EntityManager, sql: string, params?: unknown[]): Promise<T[]> {
  if (db instanceof DataSource) {
    const runner = db.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).records as T[];
    } finally {
      await runner.release();
    }
  }
  if (!db.queryRunner) return queryRows<T>(db.connection, sql, params);
  return (await db.queryRunner.query(sql, params, true)).records as T[];
}
