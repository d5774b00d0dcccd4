import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { validateDto } from '@platform/observability';
import { applyPlatformHttpSetup, Clock, ClockModule } from '@platform/runtime';
import type { NextFunction, Response } from 'express';
import request from 'supertest';
import { KbErrorFilter } from '../../errors/kb-errors';
import { dateInputMessage } from '../../validation/date-input';
import type { KbRequest } from '../../auth/kb-principal';
import { MCP_SCOPES } from '../mcp-scopes';
import { McpTokensController } from './mcp-tokens.controller';
import { CreateMcpTokenDto } from './mcp-tokens.dto';
import { McpTokensService } from './mcp-tokens.service';

const HOUR = 3600_000;
const AFTER_NOW = 'The expires at field must be a date after now.';

/**
 * kb-api's MCP token routes as the app validates and answers them (the platform's pipe, kb-api's
 * error shape), with the service replaced and a caller the auth guard would have admitted.
 */
async function startApp(issued: unknown[]): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ClockModule],
    controllers: [McpTokensController],
    providers: [{ provide: McpTokensService, useValue: { issue: async (_tenant: string, _by: string, body: unknown) => (issued.push(body), { data: {}, plain_token: 'mcp_x' }) } }],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.use((req: KbRequest, _res: Response, next: NextFunction) => {
    req.kbPrincipal = { kind: 'session', userId: '1', homeTenantId: 'default', tenantId: 'default', roles: ['super-admin'], permissions: [], platformAdmin: false, abilities: null };
    next();
  });
  applyPlatformHttpSetup(app, { filter: new KbErrorFilter() });
  await app.init();
  return app;
}

/** Whether `expires_at` is in the future is decided by the app's Clock, which tests move. */
describe('issuing an MCP token: expires_at must be after now, by the app clock', () => {
  let app: INestApplication;
  let clock: Clock;
  const issued: unknown[] = [];

  beforeAll(async () => {
    app = await startApp(issued);
    clock = app.get(Clock);
  });

  afterAll(() => app.close());

  const issue = (body: Record<string, unknown>, to = app) => request(to.getHttpServer()).post('/api/admin/mcp/tokens').send(body);

  it('accepts an expiry ahead of the clock and refuses the same expiry once the clock has passed it', async () => {
    const expiresAt = new Date(clock.nowMs() + HOUR).toISOString();
    const before = await issue({ label: 'agent', expires_at: expiresAt });
    expect(before.status).toBe(201);
    expect(issued.at(-1)).toEqual({ label: 'agent', expires_at: expiresAt });

    clock.advance(HOUR + 1_000);
    const after = await issue({ label: 'agent', expires_at: expiresAt });
    expect({ status: after.status, body: after.body }).toEqual({ status: 422, body: { message: AFTER_NOW, errors: { expires_at: [AFTER_NOW] } } });
  });

  it('goes by the app clock, not the machine clock: an expiry the machine has not reached yet can already be past', async () => {
    const machineFuture = new Date(Date.now() + HOUR).toISOString();
    clock.advance(24 * HOUR);
    const res = await issue({ label: 'agent', expires_at: machineFuture });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: AFTER_NOW, errors: { expires_at: [AFTER_NOW] } } });
  });

  it('reports a past expiry with the other fields in one 422, in field order', async () => {
    const res = await issue({ label: '', scopes: ['mcp:admin'], expires_at: '2001-01-01T00:00:00Z' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The label field is required.',
      errors: {
        label: ['The label field is required.'],
        expires_at: [AFTER_NOW],
        scopes: [`The selected scopes are invalid (each one of ${MCP_SCOPES.join(', ')}).`],
      },
    });
    expect(Object.keys(res.body.errors)).toEqual(['label', 'expires_at', 'scopes']);
  });

  it('says both that a malformed expiry is not a date and not after now, as before', async () => {
    const res = await issue({ label: 'agent', expires_at: 'tomorrow' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: { message: AFTER_NOW, errors: { expires_at: [AFTER_NOW, dateInputMessage('expires at')] } },
    });
  });

  it('takes only a full date or a date-time with its zone: a partial one (which Postgres refuses) is a 422 on expires_at', async () => {
    for (const expires_at of ['2099', '2099-11', '2099-W48', '2099-332', '2099-11-27T22', '2099-11-27T22:00:00', '2099-02-29', '2099-11-27T24:00Z', '2099-11-27T22:00+15:00']) {
      const res = await issue({ label: 'agent', expires_at });
      expect([expires_at, res.status, Object.keys(res.body.errors)]).toEqual([expires_at, 422, ['expires_at']]);
      expect(res.body.errors.expires_at).toContain(dateInputMessage('expires at'));
    }
    for (const expires_at of ['2099-11-27', '2099-11-27T22:49Z', '2099-11-27T22:49:12.182+01:00', '2096-02-29T00:00:00-14:00']) {
      expect([expires_at, (await issue({ label: 'agent', expires_at })).status]).toEqual([expires_at, 201]);
    }
  });

  it('keeps apps apart: each decides by its own clock, even while both validate at once', async () => {
    const other = await startApp([]);
    try {
      clock.advance(2 * HOUR);
      const expiresAt = new Date(other.get(Clock).nowMs() + HOUR).toISOString();
      const [here, there] = await Promise.all([issue({ label: 'agent', expires_at: expiresAt }), issue({ label: 'agent', expires_at: expiresAt }, other)]);
      expect(here.status).toBe(422);
      expect(there.status).toBe(201);
    } finally {
      await other.close();
    }
  });

  it('refuses to decide outside a request that set the clock, instead of falling back to the machine clock', async () => {
    await expect(validateDto(CreateMcpTokenDto, { label: 'agent', expires_at: '2999-01-01T00:00:00Z' })).rejects.toThrow(/ValidationClockInterceptor/);
  });
});
