import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Column, DataSource, Entity, MigrationInterface, PrimaryGeneratedColumn, QueryRunner } from 'typeorm';
import { buildDataSourceOptions, databaseNameOf, ensureDatabase, migrateDatabase, withDatabase } from './data-source';
import { snakeCase } from './snake-naming.strategy';

@Entity()
class WidgetPart {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  displayName: string;
}

class CreateWidgetPart1700000000000 implements MigrationInterface {
  name = 'CreateWidgetPart1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE widget_part (id serial PRIMARY KEY, display_name text NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE widget_part');
  }
}

const serverUrl = process.env.DATABASE_URL!;

describe('database helpers (real Postgres)', () => {
  const name = `t_db_${randomBytes(4).toString('hex')}`;

  afterAll(async () => {
    const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('converts names to snake_case', () => {
    expect(snakeCase('displayName')).toBe('display_name');
    expect(snakeCase('IAMSigningKey')).toBe('iam_signing_key');
  });

  it('creates the database once, migrates, and maps entities with snake_case columns', async () => {
    const options = buildDataSourceOptions({
      url: serverUrl,
      database: name,
      entities: [WidgetPart],
      migrations: [CreateWidgetPart1700000000000],
    });
    expect(databaseNameOf((options as { url: string }).url)).toBe(name);
    expect(await migrateDatabase(options)).toEqual(['CreateWidgetPart1700000000000']);
    expect(await migrateDatabase(options)).toEqual([]);
    expect(await ensureDatabase(withDatabase(serverUrl, name))).toBe(false);

    const ds = await new DataSource(options).initialize();
    try {
      await ds.getRepository(WidgetPart).save({ displayName: 'bolt' });
      const rows = await ds.query('SELECT display_name FROM widget_part');
      expect(rows).toEqual([{ display_name: 'bolt' }]);
      const tables = await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_name = $1`, [
        `${name}_migrations`,
      ]);
      expect(tables).toHaveLength(1);
    } finally {
      await ds.destroy();
    }
  });

  it('refuses a database name that would need quoting tricks', async () => {
    await expect(ensureDatabase(withDatabase(serverUrl, 'bad-name'))).rejects.toThrow(/must match/);
  });
});
