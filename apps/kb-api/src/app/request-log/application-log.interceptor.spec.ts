import {
  BadGatewayException,
  CallHandler,
  ExecutionContext,
  NotFoundException,
} from '@nestjs/common';
import { lastValueFrom, of, throwError } from 'rxjs';
import { KbError } from '../errors/kb-errors';
import { ApplicationLogInterceptor } from './application-log.interceptor';
import type { ApplicationLogEntry, RequestLogRepository } from './request-log.repository';

function context(req: Record<string, unknown>): ExecutionContext {
  const res = { getHeader: (h: string) => (h === 'x-request-id' ? 'req-1' : undefined) };
  return {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
}

describe('ApplicationLogInterceptor', () => {
  const rows: ApplicationLogEntry[] = [];
  const repo = {
    recordApplication: async (e: ApplicationLogEntry) => void rows.push(e),
  } as unknown as RequestLogRepository;
  const interceptor = new ApplicationLogInterceptor(repo);
  const req = {
    method: 'POST',
    route: { path: '/api/admin/things/:id' },
    path: '/api/admin/things/7',
    body: { secret: 's3cret' },
    kbPrincipal: { tenantId: 'acme', userId: '42' },
  };
  const failing = (e: unknown): CallHandler => ({ handle: () => throwError(() => e) });

  beforeEach(() => rows.splice(0));

  it('records a 500 with route pattern, status, error class and request id, then rethrows the same error', async () => {
    const boom = new TypeError('cannot read secret of undefined');
    await expect(lastValueFrom(interceptor.intercept(context(req), failing(boom)))).rejects.toBe(
      boom,
    );
    expect(rows).toEqual([
      {
        tenantId: 'acme',
        level: 'error',
        method: 'POST',
        route: '/api/admin/things/:id',
        status: 500,
        errorClass: 'TypeError',
        errorCode: null,
        requestId: 'req-1',
        userId: '42',
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain('s3cret');
  });

  it('records an upstream failure as a warning with its code', async () => {
    await expect(
      lastValueFrom(
        interceptor.intercept(context(req), failing(new KbError(502, 'llm_unavailable', 'down'))),
      ),
    ).rejects.toBeInstanceOf(KbError);
    await expect(
      lastValueFrom(interceptor.intercept(context(req), failing(new BadGatewayException()))),
    ).rejects.toBeInstanceOf(BadGatewayException);
    expect(rows.map((r) => [r.level, r.status, r.errorCode])).toEqual([
      ['warning', 502, 'llm_unavailable'],
      ['warning', 502, null],
    ]);
  });

  it('ignores 4xx and successes', async () => {
    await expect(
      lastValueFrom(interceptor.intercept(context(req), failing(new NotFoundException()))),
    ).rejects.toBeInstanceOf(NotFoundException);
    expect(
      await lastValueFrom(interceptor.intercept(context(req), { handle: () => of({ ok: true }) })),
    ).toEqual({ ok: true });
    expect(rows).toEqual([]);
  });

  it('still rethrows the original error when the row cannot be written', async () => {
    const broken = new ApplicationLogInterceptor({
      recordApplication: async () => Promise.reject(new Error('db down')),
    } as unknown as RequestLogRepository);
    const boom = new Error('boom');
    await expect(lastValueFrom(broken.intercept(context(req), failing(boom)))).rejects.toBe(boom);
  });

  /** A Postgres error as pg raises it (TypeORM wraps it as driverError). */
  const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code, severity: 'ERROR' });

  it('logs what the error filter answers: a database error it maps to 422, 409 or 404 is no 500 row', async () => {
    for (const code of ['22007', '22P02', '23505', '23503']) {
      const wrapped = Object.assign(new Error('query failed'), { driverError: pgError(code) });
      for (const e of [pgError(code), wrapped]) await expect(lastValueFrom(interceptor.intercept(context(req), failing(e)))).rejects.toBe(e);
    }
    expect(rows).toEqual([]);
    // A plain error carrying a status is still a 500, as the filter answers it.
    await expect(lastValueFrom(interceptor.intercept(context(req), failing(Object.assign(new Error('x'), { status: 404 }))))).rejects.toBeDefined();
    expect(rows.map((r) => [r.status, r.level])).toEqual([[500, 'error']]);
  });

  it('records the real route of a request without Express routing (a lean route) or mount path', async () => {
    const lean = { method: 'POST', path: '/api/kb/retrieve', kbPrincipal: req.kbPrincipal };
    await expect(lastValueFrom(interceptor.intercept(context(lean), failing(new TypeError('x'))))).rejects.toBeInstanceOf(TypeError);
    expect(rows.map((r) => r.route)).toEqual(['/api/kb/retrieve']);
  });
});
