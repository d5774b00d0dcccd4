import { Readable } from 'node:stream';
import type { ArgumentsHost } from '@nestjs/common';
import { json, urlencoded } from 'express';
import type { RequestHandler } from 'express';
import { ProblemDetailsFilter, toProblem } from './problem-details.filter';

/** The error Express's body parser raises for this request (undefined when it parses). */
function parserError(parse: RequestHandler, headers: Record<string, string>, body: string): Promise<unknown> {
  const req = Object.assign(Readable.from([Buffer.from(body)]), { headers: { 'content-length': String(Buffer.byteLength(body)), ...headers }, method: 'POST', url: '/' });
  return new Promise((resolve) => parse(req as never, {} as never, (err?: unknown) => resolve(err)));
}

describe('toProblem: errors from the body parsers', () => {
  it.each([
    ['an unknown Content-Encoding', json(), { 'content-type': 'application/json', 'content-encoding': 'br2' }, '{}', 415, 'unsupported_media_type', /content encoding "br2"/],
    ['a JSON body over the limit', json({ limit: '100kb' }), { 'content-type': 'application/json' }, `{"a":"${'x'.repeat(200 * 1024)}"}`, 413, 'payload_too_large', /too large/],
    [
      'a form with too many parameters',
      urlencoded({ extended: false }),
      { 'content-type': 'application/x-www-form-urlencoded' },
      Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&'),
      413,
      'payload_too_large',
      /too many parameters/,
    ],
    ['unparsable JSON', json(), { 'content-type': 'application/json' }, '{"a":', 400, 'bad_request', /JSON/],
  ])('answers %s with its 4xx status and a detail naming it', async (_what, parse, headers, body, status, code, detail) => {
    const error = await parserError(parse, headers, body);
    expect(error).toBeInstanceOf(Error);
    const problem = toProblem(error, '/x');
    expect(problem).toMatchObject({ status, code, type: `https://errors.platform.local/${code}`, instance: '/x' });
    expect(problem.detail).toMatch(detail);
  });

  it('keeps 500 for an error whose status is not an exposed 4xx', () => {
    for (const e of [
      Object.assign(new Error('db down'), { status: 503, expose: false }),
      Object.assign(new Error('internal detail'), { status: 400 }),
      Object.assign(new Error('internal detail'), { statusCode: 404, expose: 'yes' }),
      { status: 400, expose: true, message: 'not an Error' },
    ]) {
      const problem = toProblem(e);
      expect(problem).toMatchObject({ status: 500, code: 'internal_error' });
      expect(problem.detail).toBeUndefined();
    }
  });

  it('caps a long message from the client', () => {
    const problem = toProblem(Object.assign(new Error(`Unexpected token in JSON: ${'x'.repeat(5000)}`), { status: 400, expose: true }));
    expect(problem.detail!.length).toBeLessThanOrEqual(201);
  });

  it('does not log a parser error as a server error', async () => {
    const filter = new ProblemDetailsFilter();
    const logged = jest.spyOn((filter as unknown as { logger: { error: (...a: unknown[]) => void } }).logger, 'error').mockImplementation(() => undefined);
    const sent: { status?: number; body?: string } = {};
    const res = {
      headersSent: false,
      status(s: number) {
        sent.status = s;
        return this;
      },
      type() {
        return this;
      },
      send(b: string) {
        sent.body = b;
        return this;
      },
    };
    const host = { switchToHttp: () => ({ getRequest: () => ({ originalUrl: '/nope?x=1' }), getResponse: () => res }) } as unknown as ArgumentsHost;
    filter.catch(await parserError(json(), { 'content-type': 'application/json', 'content-encoding': 'br2' }, '{}'), host);
    expect(sent.status).toBe(415);
    expect(JSON.parse(sent.body!)).toMatchObject({ status: 415, code: 'unsupported_media_type', instance: '/nope' });
    expect(logged).not.toHaveBeenCalled();
  });
});
