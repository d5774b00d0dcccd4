import { FilterServer, serveFilter } from '@platform/testing';
import { KbErrorFilter } from './kb-errors';

/** The knowledge base's filter answering what a real Postgres raised. */
describe('KbErrorFilter and Postgres errors', () => {
  let server: FilterServer;

  beforeAll(async () => (server = await serveFilter(new KbErrorFilter())));
  afterAll(() => server.stop());

  it('answers a number out of range for its column 422 in the validation shape, without SQL', async () => {
    const r = await server.answer('int4-overflow');
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: expect.stringContaining('outside the range'), errors: { request: [expect.stringContaining('outside the range')] } });
    expect(JSON.stringify(r.body)).not.toMatch(/int4|integer|99999/);
  });

  it('answers malformed integer text 422', async () => {
    expect((await server.answer('bad-integer-text')).status).toBe(422);
  });

  it('answers a unique constraint lost to a concurrent request 409, naming nothing of the schema', async () => {
    const r = await server.answer('unique-violation');
    expect(r).toMatchObject({ status: 409, body: { error: 'conflict', message: expect.any(String) } });
    expect(JSON.stringify(r.body)).not.toMatch(/filter_probe|name|key/i);
  });

  it('answers a row added under a parent deleted meanwhile 404, and a row deleted while still referenced 409', async () => {
    expect(await server.answer('foreign-key-missing')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await server.answer('foreign-key-referenced')).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it('keeps other database failures a 500 that names nothing', async () => {
    const r = await server.answer('missing-table');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ message: 'Server error.' });
  });
});
