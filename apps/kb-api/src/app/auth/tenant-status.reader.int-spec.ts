import { createTestDatabase, TestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { TenantsRepository } from '../tenancy/tenants.repository';
import { TenantStatusReader } from './tenant-status.reader';

describe('TenantStatusReader (Postgres)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let statements = 0;
  let reader: TenantStatusReader;

  beforeAll(async () => {
    database = await createTestDatabase('kb_tenant_status');
    db = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    await db.query(
      `CREATE TABLE kb_tenants (id text PRIMARY KEY, name text NOT NULL, status text NOT NULL DEFAULT 'active')`,
    );
    await db.query(
      `INSERT INTO kb_tenants (id, name, status) VALUES ('acme', 'Acme', 'active'), ('frozen', 'Frozen', 'suspended')`,
    );
    // The real data source, with its statements counted.
    const counted = {
      query: (sql: string, params?: unknown[]) => (statements++, db.query(sql, params)),
    };
    reader = new TenantStatusReader(new TenantsRepository(counted as unknown as DataSource));
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('reads the status; unknown and malformed ids have none', async () => {
    expect(await reader.status('acme')).toBe('active');
    expect(await reader.status('frozen')).toBe('suspended');
    expect(await reader.status('nope')).toBeNull();
    const before = statements;
    expect(await reader.status('Not A Tenant!')).toBeNull();
    expect(statements).toBe(before);
  });

  it('lets concurrent requests share round trips', async () => {
    const before = statements;
    const answers = await Promise.all(Array.from({ length: 50 }, () => reader.status('acme')));
    expect(answers).toEqual(Array(50).fill('active'));
    // The first caller's read, then one read for everyone who asked while it was in flight.
    expect(statements - before).toBe(2);
  });

  it('answers every caller with a read that started after it asked', async () => {
    const early = reader.status('acme');
    // Committed while the first read is in flight: a caller asking now must see it.
    await db.query(`UPDATE kb_tenants SET status = 'suspended' WHERE id = 'acme'`);
    const late = reader.status('acme');
    await early;
    expect(await late).toBe('suspended');
    expect(await reader.status('acme')).toBe('suspended');
    await db.query(`UPDATE kb_tenants SET status = 'active' WHERE id = 'acme'`);
    expect(await reader.status('acme')).toBe('active');
  });

  it('passes a failed read to its callers and recovers', async () => {
    await db.query('ALTER TABLE kb_tenants RENAME TO kb_tenants_away');
    try {
      const [first, second] = await Promise.allSettled([
        reader.status('acme'),
        reader.status('acme'),
      ]);
      expect(first.status).toBe('rejected');
      expect(second.status).toBe('rejected');
    } finally {
      await db.query('ALTER TABLE kb_tenants_away RENAME TO kb_tenants');
    }
    expect(await reader.status('acme')).toBe('active');
  });
});
