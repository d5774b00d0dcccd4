import { clientNaming, RepeatedStatements, withDatabase } from '@platform/database';
import { sqlRunnerFor, TransactionalSqlRunner } from '@platform/guardrails';
import { DataSource } from 'typeorm';

/**
 * The connection to the shared guardrails database, whose tables the guardrails library reads and
 * writes through its own statements (sqlRunnerFor). Wiring only: kb-api writes no SQL here.
 */
export async function openGuardrailsDatabase(
  serviceDatabaseUrl: string,
  name: string,
  prepareAfter: number,
): Promise<{ sql: TransactionalSqlRunner; close: () => Promise<void> }> {
  // The chat writes an audit row and reads the output settings here on every question: the same named statements as the service's own pool.
  const Client = clientNaming(new RepeatedStatements(prepareAfter));
  const db = new DataSource({ type: 'postgres', url: withDatabase(serviceDatabaseUrl, name), extra: { max: 4, connectionTimeoutMillis: 5000, Client } });
  try {
    await db.initialize();
  } catch (e) {
    throw new Error(`guardrails database ${name} is unreachable (run cli.js migrate): ${(e as Error).message}`);
  }
  return { sql: sqlRunnerFor(db), close: () => db.destroy() };
}
