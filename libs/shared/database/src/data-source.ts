import { Client } from 'pg';
import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { clientNaming, RepeatedStatements } from './repeated-statements';
import { SnakeNamingStrategy } from './snake-naming.strategy';

const DB_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** The same server URL pointed at another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/** Creates the database when missing (`migrate` calls this, so a fresh server needs no manual step). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseNameOf(url);
  if (!DB_NAME_PATTERN.test(name)) throw new Error(`database name "${name}" must match ${DB_NAME_PATTERN}`);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } catch (e) {
      // Two replicas racing to create it: the loser sees duplicate_database (42P04) and carries on.
      if ((e as { code?: string }).code !== '42P04') throw e;
      return false;
    }
    return true;
  } finally {
    await admin.end();
  }
}

export interface ServiceDataSourceOptions {
  /** Server URL; its path is replaced by `database`. */
  url: string;
  database: string;
  entities: MixedList<string | Function | EntitySchema>;
  migrations: MixedList<string | Function>;
  poolSize?: number;
  logging?: boolean;
  /**
   * A parameterized statement sent this many times becomes a named (prepared) statement on each
   * pooled connection (repeated-statements.ts); 0 never names one. Default 3.
   */
  prepareAfter?: number;
}

/** Options every service's DataSource shares: migrations only, snake_case, one migrations table per service. */
export function buildDataSourceOptions(o: ServiceDataSourceOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: withDatabase(o.url, o.database),
    entities: o.entities,
    migrations: o.migrations,
    migrationsTableName: `${o.database}_migrations`,
    migrationsTransactionMode: 'each',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    logging: o.logging ?? false,
    extra: { max: o.poolSize ?? 10, connectionTimeoutMillis: 5000, Client: clientNaming(new RepeatedStatements(o.prepareAfter ?? 3)) },
  };
}

/** Creates the database if needed and applies pending migrations; returns the names applied. */
export async function migrateDatabase(options: DataSourceOptions): Promise<string[]> {
  const url = (options as { url?: string }).url;
  if (url) await ensureDatabase(url);
  // Migrations run once: nothing in them repeats enough to be worth a named statement, so none is made (and a database
  // that serves several connections from one session, like PGlite, accepts them).
  const ds = new DataSource({ ...options, extra: { ...(options.extra as object), Client: undefined } } as DataSourceOptions);
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
