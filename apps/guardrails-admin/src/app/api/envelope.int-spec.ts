import { FilterServer, serveFilter } from '@platform/testing';
import { GuardrailsEnvelopeFilter } from './envelope';

/** The guardrails API's envelope filter answering what a real Postgres raised. */
describe('GuardrailsEnvelopeFilter and Postgres errors', () => {
  let server: FilterServer;

  beforeAll(async () => (server = await serveFilter(new GuardrailsEnvelopeFilter())));
  afterAll(() => server.stop());

  it.each(['int4-overflow', 'bad-integer-text'] as const)('answers %s 422 validation_failed in the error envelope', async (statement) => {
    const r = await server.answer(statement);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      schema_version: 'guardrails.api.v1',
      schema: 'guardrails.api.v1.error',
      data: { error: 'validation_failed', message: expect.any(String), errors: { request: [expect.stringMatching(/^The request holds/)] } },
    });
    expect(JSON.stringify(r.body)).not.toMatch(/int4|int8|integer|bigint|99999|1x/);
  });

  it('keeps other database failures a 500 that names nothing', async () => {
    const r = await server.answer('missing-table');
    expect(r.status).toBe(500);
    expect(r.body['data']).toEqual({ error: 'server_error', message: 'internal error' });
  });
});
