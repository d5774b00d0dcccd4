import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { clientDataError, ClientDataError, DATA_EXCEPTION_FIELD, postgresSqlState } from './data-exception';
import { ValidationFailedError } from './domain-error';
import { toProblem } from './problem-details.filter';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The error Postgres raises for a statement (the statement must fail). */
async function failureOf(client: Client, sql: string, params: unknown[] = []): Promise<unknown> {
  try {
    await client.query(sql, params);
  } catch (e) {
    return e;
  }
  throw new Error(`expected ${sql} to fail`);
}

describe('Postgres data exceptions as client input errors', () => {
  let client: Client;
  const warnings: string[] = [];
  const logger = { warn: (m: string) => warnings.push(m) };

  beforeAll(async () => {
    client = new Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TEMP TABLE short_text (v varchar(3))');
  });

  afterAll(() => client.end());

  beforeEach(() => (warnings.length = 0));

  it.each([
    ['22003', 'an integer beyond int4', 'SELECT 99999999999::int4', [], 'outside the range'],
    ['22003', 'a client value beyond int4 as a parameter', 'SELECT $1::int4', ['99999999999'], 'outside the range'],
    ['22P02', 'text where an integer belongs', 'SELECT $1::int8', ['12abc'], 'not valid'],
    ['22P02', 'a malformed uuid', 'SELECT $1::uuid', ['not-a-uuid'], 'not valid'],
    ['22021', 'a NUL byte in text', 'SELECT convert_from($1::bytea, \'UTF8\')', [Buffer.from([0x61, 0x00])], 'character'],
    ['22001', 'text longer than its column', "INSERT INTO short_text VALUES ('abcdef')", [], 'longer'],
    ['22007', 'a malformed timestamp', 'SELECT $1::timestamptz', ['yesterday-ish'], 'date or time'],
    ['22008', 'a date field out of range', 'SELECT $1::timestamptz', ['2024-13-45'], 'date or time'],
  ])('maps SQLSTATE %s (%s) to a 422 naming no SQL, and warns', async (state, _name, sql, params, word) => {
    const raw = await failureOf(client, sql, params);
    expect(postgresSqlState(raw)).toBe(state);
    const mapped = clientDataError(raw, logger);
    expect(mapped).toBeInstanceOf(ClientDataError);
    expect(mapped).toBeInstanceOf(ValidationFailedError);
    expect(mapped!.status).toBe(422);
    expect(mapped!.errors).toEqual([{ field: DATA_EXCEPTION_FIELD, message: expect.stringContaining(word) }]);
    // The caller's message names neither the statement, the type nor the value.
    expect(mapped!.message).not.toMatch(/select|insert|int4|integer|uuid|timestamp|varchar|99999|abc/i);
    expect(warnings).toEqual([expect.stringContaining(`SQLSTATE ${state}`)]);
    expect(toProblem(mapped)).toMatchObject({ status: 422, code: 'validation_failed', errors: mapped!.errors });
  });

  it('sees the SQLSTATE through TypeORM’s QueryFailedError', async () => {
    const ds = await new DataSource({ type: 'postgres', url }).initialize();
    try {
      const raw = await ds.query('SELECT $1::int4', ['99999999999']).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((raw as Error).constructor.name).toBe('QueryFailedError');
      expect(clientDataError(raw)?.sqlState).toBe('22003');
    } finally {
      await ds.destroy();
    }
  });

  it.each([
    ['23505', 'a unique violation', 'CREATE TEMP TABLE uniq (v int PRIMARY KEY); INSERT INTO uniq VALUES (1), (1)'],
    ['42P01', 'a missing table (a server bug)', 'SELECT * FROM no_such_table_here'],
    ['42601', 'a syntax error (a server bug)', 'SELEC 1'],
  ])('leaves SQLSTATE %s (%s) to the handling it has', async (state, _name, sql) => {
    const raw = await failureOf(client, sql);
    expect(postgresSqlState(raw)).toBe(state);
    expect(clientDataError(raw, logger)).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('ignores errors that merely carry a code', () => {
    const io = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const lookalike = Object.assign(new Error('not from Postgres'), { code: '22003' });
    expect(clientDataError(io)).toBeUndefined();
    expect(clientDataError(lookalike)).toBeUndefined();
    expect(clientDataError('22003')).toBeUndefined();
    expect(clientDataError(undefined)).toBeUndefined();
  });
});
