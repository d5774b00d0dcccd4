import { FilterServer, serveFilter } from '@platform/testing';
import { EvidenceErrorFilter } from './evidence-error.filter';

/** The evidence review filter answering what a real Postgres raised. */
describe('EvidenceErrorFilter and Postgres errors', () => {
  let server: FilterServer;

  beforeAll(async () => (server = await serveFilter(new EvidenceErrorFilter())));
  afterAll(() => server.stop());

  it.each(['int4-overflow', 'bad-integer-text'] as const)('answers %s 422 validation_error naming no SQL', async (statement) => {
    const r = await server.answer(statement);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: [{ path: 'request', message: expect.stringMatching(/^The request holds/) }] } });
    expect(JSON.stringify(r.body)).not.toMatch(/int4|int8|integer|bigint|99999|1x/);
  });

  it('keeps other database failures a 500 internal_error', async () => {
    const r = await server.answer('missing-table');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: { code: 'internal_error', message: 'The review could not be completed.', details: [] } });
  });
});
