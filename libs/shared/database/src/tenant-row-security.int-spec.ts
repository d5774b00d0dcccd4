import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, ensureDatabase, withDatabase } from './data-source';
import { confineToTenant, currentTenantScope, runAsTenant } from './tenant-row-security';

const serverUrl = process.env.DATABASE_URL!;

/**
 * A table under a tenant policy, a role the policy applies to, and DataSources of the table's
 * owner: queries inside runAsTenant must see one tenant, queries outside it everything.
 */
describe('confineToTenant (real Postgres, row-level security)', () => {
  const suffix = randomBytes(4).toString('hex');
  const database = `t_rls_${suffix}`;
  const role = `t_rls_role_${suffix}`;
  const url = withDatabase(serverUrl, database);
  const sources: DataSource[] = [];

  const open = async (poolSize: number, asRole = role) => {
    const ds = await new DataSource(buildDataSourceOptions({ url: serverUrl, database, entities: [], migrations: [], poolSize })).initialize();
    confineToTenant(ds, asRole);
    sources.push(ds);
    return ds;
  };
  const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name).sort();

  beforeAll(async () => {
    await ensureDatabase(url);
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`CREATE ROLE ${role} NOLOGIN`);
      await c.query('CREATE TABLE part (id serial PRIMARY KEY, tenant_id text NOT NULL, name text NOT NULL)');
      await c.query(`INSERT INTO part (tenant_id, name) VALUES ('acme', 'a1'), ('acme', 'a2'), ('globex', 'g1')`);
      await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON part TO ${role}`);
      await c.query(`GRANT USAGE ON SEQUENCE part_id_seq TO ${role}`);
      await c.query('ALTER TABLE part ENABLE ROW LEVEL SECURITY');
      await c.query(`CREATE POLICY part_tenant ON part USING (tenant_id = current_setting('app.tenant_id', true))`);
    } finally {
      await c.end();
    }
  });

  afterAll(async () => {
    for (const ds of sources) if (ds.isInitialized) await ds.destroy();
    const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('confines an unscoped read to the tenant in scope, and leaves the owner whole outside', async () => {
    const ds = await open(1);
    expect(names(await ds.query('SELECT name FROM part'))).toEqual(['a1', 'a2', 'g1']);
    expect(names(await runAsTenant('acme', () => ds.query('SELECT name FROM part')))).toEqual(['a1', 'a2']);
    expect(names(await runAsTenant('globex', () => ds.query('SELECT name FROM part')))).toEqual(['g1']);
    expect(await runAsTenant('initech', () => ds.query('SELECT name FROM part'))).toEqual([]);
    // One pooled connection served all of these: back outside, it is the owner's again.
    expect(await ds.query('SELECT current_user = session_user AS owner, current_setting($1, true) AS tenant', ['app.tenant_id'])).toEqual([
      { owner: true, tenant: '' },
    ]);
    expect(names(await ds.query('SELECT name FROM part'))).toEqual(['a1', 'a2', 'g1']);
  });

  it('confines a repeated (named, prepared) statement to the tenant in scope, whatever plan Postgres reuses', async () => {
    const ds = await open(1);
    const read = (min: number) => ds.query('SELECT name FROM part WHERE id > $1', [min]);
    // Enough runs in each scope for the statement to be named and for Postgres to settle on a generic plan.
    for (let round = 0; round < 8; round++) {
      expect(names(await runAsTenant('acme', () => read(0)))).toEqual(['a1', 'a2']);
      expect(names(await runAsTenant('globex', () => read(0)))).toEqual(['g1']);
      expect(names(await read(0))).toEqual(['a1', 'a2', 'g1']);
      expect(await runAsTenant('initech', () => read(0))).toEqual([]);
    }
    const prepared: Array<{ statement: string; generic_plans: string }> = await ds.query(
      'SELECT statement, generic_plans::text FROM pg_prepared_statements WHERE statement = $1',
      ['SELECT name FROM part WHERE id > $1'],
    );
    expect(prepared).toHaveLength(1);
    // The runs above went through a plan made once and reused, not one per run.
    expect(Number(prepared[0].generic_plans)).toBeGreaterThan(0);
  });

  it('keeps the scope across awaits, in transactions, and refuses a write into another tenant', async () => {
    const ds = await open(2);
    await runAsTenant('acme', async () => {
      expect(currentTenantScope()).toBe('acme');
      await new Promise((r) => setTimeout(r, 5));
      await ds.transaction(async (tx) => {
        await tx.query(`INSERT INTO part (tenant_id, name) VALUES ('acme', 'a3')`);
        expect(names(await tx.query('SELECT name FROM part'))).toEqual(['a1', 'a2', 'a3']);
        await tx.query(`UPDATE part SET name = name || '!'`);
      });
      await expect(ds.query(`INSERT INTO part (tenant_id, name) VALUES ('globex', 'planted')`)).rejects.toThrow(/row-level security/);
    });
    expect(currentTenantScope()).toBeUndefined();
    expect(names(await ds.query('SELECT name FROM part'))).toEqual(['a1!', 'a2!', 'a3!', 'g1']);
    await ds.query(`UPDATE part SET name = rtrim(name, '!')`);
    await ds.query(`DELETE FROM part WHERE name = 'a3'`);
  });

  it('keeps concurrent requests of different tenants apart on a shared pool', async () => {
    const ds = await open(2);
    const read = (tenant: string) =>
      runAsTenant(tenant, async () => {
        const seen: string[][] = [];
        for (let i = 0; i < 20; i++) seen.push(names(await ds.query('SELECT name FROM part')));
        return seen;
      });
    const [acme, globex, owner] = await Promise.all([read('acme'), read('globex'), Promise.all(Array.from({ length: 20 }, () => ds.query('SELECT name FROM part')))]);
    expect(new Set(acme.map((r) => r.join()))).toEqual(new Set(['a1,a2']));
    expect(new Set(globex.map((r) => r.join()))).toEqual(new Set(['g1']));
    expect(new Set(owner.map((r) => names(r).join()))).toEqual(new Set(['a1,a2,g1']));
  });

  it('fails closed: a connection that cannot take the role answers nothing and is not reused', async () => {
    const ds = await open(1, `t_rls_missing_${suffix}`);
    await expect(runAsTenant('acme', () => ds.query('SELECT name FROM part'))).rejects.toThrow(/role .* does not exist/);
    expect(names(await ds.query('SELECT name FROM part'))).toEqual(['a1', 'a2', 'g1']);
  });

  it('refuses an empty tenant and a second, different role on the same DataSource', async () => {
    const ds = await open(1);
    expect(() => runAsTenant('', () => 1)).toThrow(/tenant id/);
    expect(() => confineToTenant(ds, role)).not.toThrow();
    expect(() => confineToTenant(ds, 'someone_else')).toThrow(/already confined/);
  });
});
