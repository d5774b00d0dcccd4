import { RepeatedStatements } from './repeated-statements';

describe('RepeatedStatements', () => {
  const select = 'SELECT name FROM part WHERE id = $1';

  it('names a statement from its prepareAfter-th sending on, always with the same name', () => {
    const s = new RepeatedStatements(3);
    expect(s.nameFor(select)).toBeUndefined();
    expect(s.nameFor(select)).toBeUndefined();
    const name = s.nameFor(select);
    expect(name).toMatch(/^platform_stmt_\d+$/);
    expect(s.nameFor(select)).toBe(name);
    expect(s.nameFor(`${select} `)).toBeUndefined();
    expect(s.size).toBe(1);
  });

  it('gives distinct texts distinct names', () => {
    const s = new RepeatedStatements(1);
    const names = ['SELECT 1 WHERE $1', 'WITH x AS (SELECT $1 AS a) SELECT a FROM x', 'INSERT INTO t VALUES ($1)', '  update t SET a = $1', 'DELETE FROM t WHERE a = $1', 'VALUES ($1)'].map((t) =>
      s.nameFor(t),
    );
    expect(names.every((n) => n !== undefined)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('never names with prepareAfter 0, nor utility statements, nor very long texts', () => {
    const off = new RepeatedStatements(0);
    for (let i = 0; i < 10; i++) expect(off.nameFor(select)).toBeUndefined();
    const s = new RepeatedStatements(1);
    for (const text of ['SET LOCAL statement_timeout = $1', 'BEGIN', 'COMMIT', 'CREATE TABLE t (a int)', `SELECT '${'x'.repeat(RepeatedStatements.MAX_TEXT_LENGTH)}' = $1`]) {
      expect(s.nameFor(text)).toBeUndefined();
    }
  });

  it('holds a bounded number of names and counted texts however many distinct texts pass', () => {
    const s = new RepeatedStatements(2);
    // Texts seen once each (values inlined into the SQL) are counted, never named, and the count is bounded.
    for (let i = 0; i < RepeatedStatements.MAX_COUNTED * 3; i++) expect(s.nameFor(`SELECT ${i} = $1`)).toBeUndefined();
    expect((s as unknown as { counts: Map<string, number> }).counts.size).toBeLessThanOrEqual(RepeatedStatements.MAX_COUNTED);
    for (let i = 0; i < RepeatedStatements.MAX_NAMED + 50; i++) {
      s.nameFor(`SELECT name FROM t${i} WHERE id = $1`);
      s.nameFor(`SELECT name FROM t${i} WHERE id = $1`);
    }
    expect(s.size).toBe(RepeatedStatements.MAX_NAMED);
    // A text named before the limit keeps its name.
    expect(s.nameFor('SELECT name FROM t0 WHERE id = $1')).toBe('platform_stmt_1');
  });
});

describe('RepeatedStatements and * columns', () => {
  it('leaves statements answering * unnamed (their columns follow the table), and names those that list columns', () => {
    const s = new RepeatedStatements(1);
    for (const text of [
      'SELECT * FROM kb_users WHERE id = $1',
      'select distinct * from t where a = $1',
      'SELECT u.* FROM kb_users u WHERE id = $1',
      'SELECT a, "t".* FROM t WHERE id = $1',
      'INSERT INTO t (a) VALUES ($1) RETURNING *',
      'WITH x AS (SELECT * FROM t) SELECT a FROM x WHERE a = $1',
    ]) {
      expect(s.nameFor(text)).toBeUndefined();
    }
    for (const text of ['SELECT count(*) FROM t WHERE a = $1', 'SELECT a, b FROM t WHERE a = $1 * 2', 'INSERT INTO t (a) VALUES ($1) RETURNING id']) {
      expect(s.nameFor(text)).toBeDefined();
    }
  });
});
