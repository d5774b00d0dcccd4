import { Provider } from '@nestjs/common';
import { sqlRunnerFor, TransactionalSqlRunner } from '@platform/guardrails';
import { DataSource } from 'typeorm';
import { GuardrailsAdminConfig } from '../../config/guardrails-admin-config';

/**
 * The data boundary of this app. Every guardrails table is read and written by the guardrails
 * library's own Postgres stores (its repositories, which hold all of its SQL); this app writes no
 * SQL and keeps no DataSource of its own. What it does hand over is a connection: the one provider
 * below wraps the app's DataSource in the library's SQL runner, and `openGuardrailsDatabase` does
 * the same for a CLI task, which has no Nest container. Everything else gets stores, never a connection.
 */
export const GUARDRAILS_SQL = Symbol.for('guardrails-admin.GUARDRAILS_SQL');

/** The guardrails stores' connection inside the running app (the app's pooled DataSource). */
export const guardrailsSqlProvider: Provider = {
  provide: GUARDRAILS_SQL,
  inject: [DataSource],
  useFactory: (dataSource: DataSource): TransactionalSqlRunner => sqlRunnerFor(dataSource),
};

/** A connection of one CLI task's own; `close` ends it when the task is done. */
export async function openGuardrailsDatabase(config: GuardrailsAdminConfig): Promise<{ sql: TransactionalSqlRunner; close: () => Promise<void> }> {
  const dataSource = await new DataSource(config.dataSourceOptions()).initialize();
  return { sql: sqlRunnerFor(dataSource), close: () => dataSource.destroy() };
}
