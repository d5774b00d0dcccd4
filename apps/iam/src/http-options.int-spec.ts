import { FilterServer, serveFilter } from '@platform/testing';
import { IamErrorFilter } from './http-options';

/** iam's filters (RFC 6749 under /oauth, problem+json elsewhere) answering what a real Postgres raised. */
describe('IamErrorFilter and Postgres errors', () => {
  let server: FilterServer;

  beforeAll(async () => (server = await serveFilter(new IamErrorFilter())));
  afterAll(() => server.stop());

  it('answers a client value out of range as invalid_request (400) under /oauth', async () => {
    const r = await server.answer('int4-overflow', '/oauth/token');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('request: The request holds a number outside the range') });
  });

  it('answers it 422 problem+json naming the request elsewhere', async () => {
    const r = await server.answer('bad-integer-text', '/api/iam/apps');
    expect(r.status).toBe(422);
    expect(r.contentType).toContain('application/problem+json');
    expect(r.body).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ field: 'request', message: expect.stringMatching(/^The request holds/) }] });
    expect(JSON.stringify(r.body)).not.toMatch(/int8|bigint|1x/);
  });

  it.each(['/oauth/token', '/api/iam/apps'])('keeps other database failures a 500 on %s', async (path) => {
    const r = await server.answer('missing-table', path);
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain('no_such_table');
  });
});
