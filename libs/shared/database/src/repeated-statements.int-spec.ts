import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, ensureDatabase, withDatabase } from './data-source';

const serverUrl = process.env.DATABASE_URL!;

/**
 * Named statements on a real Postgres, through a service's DataSource: what a migration of the next
 * release (expand: a column added while this release still runs) does to them.
 */
describe('repeated statements (real Postgres)', () => {
  const database = `t_stmt_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(serverUrl, database);
  let ds: DataSource;
  let owner: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    owner = new Client({ connectionString: url });
    await owner.connect();
    await owner.query('CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL)');
    await owner.query(`INSERT INTO item (name) VALUES ('a'), ('b')`);
    ds = await new DataSource(buildDataSourceOptions({ url: serverUrl, database, entities: [], migrations: [], poolSize: 1 })).initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await owner?.end();
    const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  const listed = 'SELECT id, name FROM item WHERE id >= $1 ORDER BY id';
  const starred = 'SELECT * FROM item WHERE id >= $1 ORDER BY id';
  const named = async () =>
    ((await ds.query('SELECT statement FROM pg_prepared_statements WHERE statement = ANY($1::text[])', [[listed, starred]])) as Array<{ statement: string }>).map(
      (r) => r.statement,
    );

  it('names a repeated statement that lists its columns, and it keeps answering after a column is added', async () => {
    for (let i = 0; i < 6; i++) {
      expect(await ds.query(listed, [1])).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
      expect(await ds.query(starred, [1])).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
    }
    expect(await named()).toEqual([listed]);
    await owner.query(`ALTER TABLE item ADD COLUMN note text NOT NULL DEFAULT ''`);
    expect(await ds.query(listed, [1])).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
    expect(await ds.query(starred, [1])).toEqual([{ id: 1, name: 'a', note: '' }, { id: 2, name: 'b', note: '' }]);
  });

  it('would fail a named statement answering * after such a migration (why those stay unnamed)', async () => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      const query = { name: 'star_by_hand', text: 'SELECT * FROM item WHERE id >= $1', values: [1] };
      await c.query(query);
      await owner.query('ALTER TABLE item ADD COLUMN later int');
      await expect(c.query(query)).rejects.toThrow(/cached plan must not change result type/);
    } finally {
      await c.end();
    }
  });
});
