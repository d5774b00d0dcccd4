import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import pinoHttp from 'pino-http';
import { loggedUrl, pinoHttpOptions, REDACT_PATHS, requestIdFor } from './logging.module';
import { ProblemDetailsFilter, toProblem } from './problem-details.filter';
import { DomainError, ValidationFailedError } from './domain-error';
import { ArgumentsHost, HttpException } from '@nestjs/common';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { stream, lines: () => chunks.join('').trim().split('\n').map((l) => JSON.parse(l)) };
}

describe('log redaction', () => {
  it('censors secrets wherever the redact paths name them', () => {
    const out = capture();
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, out.stream);
    logger.info(
      {
        req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1', accept: 'json' } },
        body: { password: 'hunter2', client_secret: 'cs', refresh_token: 'rt', name: 'ok' },
        user: { token: 'kbp_x' },
      },
      'request',
    );
    const [line] = out.lines();
    const text = JSON.stringify(line);
    for (const secret of ['Bearer abc', 'sid=1', 'hunter2', '"cs"', '"rt"', 'kbp_x']) expect(text).not.toContain(secret);
    expect(line).toMatchObject({ body: { name: 'ok' }, req: { headers: { accept: 'json' } } });
  });
});

describe('logged URLs', () => {
  it('censors the values of credential parameters in the query, keeping the rest', () => {
    expect(loggedUrl('/api/iam/v1/applications?access_token=eyJ.x.y&page=2')).toBe('/api/iam/v1/applications?access_token=[redacted]&page=2');
    expect(loggedUrl('/cb?code=abc&state=s&Client_Secret=c&%6Bey=k&q=a+b')).toBe('/cb?code=[redacted]&state=s&Client_Secret=[redacted]&%6Bey=[redacted]&q=a+b');
    expect(loggedUrl('/x?token&%zz=1&tokens=2')).toBe('/x?token&%zz=1&tokens=2');
    expect(loggedUrl('/plain/path')).toBe('/plain/path');
  });

  it('censors a pushed request_uri, also inside a URL carried in another parameter (a sign-in page return_to)', () => {
    expect(loggedUrl('/oauth/authorize?client_id=app&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc')).toBe('/oauth/authorize?client_id=app&request_uri=[redacted]');
    const returnTo = `/oauth/authorize?${new URLSearchParams({ client_id: 'app', request_uri: 'urn:ietf:params:oauth:request_uri:abc' })}`;
    const logged = loggedUrl(`/login?return_to=${encodeURIComponent(returnTo)}&x=1`);
    expect(logged).not.toContain('abc');
    expect(decodeURIComponent(logged)).toBe('/login?return_to=/oauth/authorize?client_id=app&request_uri=[redacted]&x=1');
    // Without anything to censor inside, the value is logged exactly as sent.
    expect(loggedUrl('/login?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dapp&q=what%3F')).toBe('/login?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dapp&q=what%3F');
  });
});

describe('the access log line of a redirect', () => {
  it('censors the credentials in the response Location as in the request URL (a code sent back to the client)', async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        chunks.push(chunk.toString());
        cb();
      },
    });
    const middleware = pinoHttp(pinoHttpOptions('svc', 'info', false), stream);
    const server = createServer((req, res) =>
      middleware(req, res, () => {
        res.setHeader('set-cookie', 'sid=secret-session');
        res.writeHead(302, { location: 'https://client.example/cb?code=the-code&state=s&iss=https%3A%2F%2Fiam' }).end();
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/authorize?client_id=app`, { redirect: 'manual' });
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const line = JSON.parse(chunks.join('').trim().split('\n')[0]) as { res: { statusCode: number; headers: Record<string, string> } };
    expect(line.res.statusCode).toBe(302);
    expect(line.res.headers['location']).toBe('https://client.example/cb?code=[redacted]&state=s&iss=https%3A%2F%2Fiam');
    expect(JSON.stringify(line)).not.toContain('the-code');
    expect(JSON.stringify(line)).not.toContain('secret-session');
  });
});

describe('problem instance', () => {
  it('names the path alone, never the query a credential may ride in', () => {
    let sent = '';
    const res = { headersSent: false, status: () => res, type: () => res, send: (b: string) => (sent = b) };
    const host = { switchToHttp: () => ({ getRequest: () => ({ originalUrl: '/api/x?access_token=secret' }), getResponse: () => res }) };
    new ProblemDetailsFilter().catch(new HttpException('no', 401), host as unknown as ArgumentsHost);
    expect(JSON.parse(sent).instance).toBe('/api/x');
  });
});

describe('request ids', () => {
  const make = (id?: string) => {
    const req = new IncomingMessage(new Socket());
    if (id !== undefined) req.headers['x-request-id'] = id;
    return { req, res: new ServerResponse(req) };
  };

  it('keeps a well-formed incoming id and echoes it', () => {
    const { req, res } = make('abc-123');
    expect(requestIdFor(req, res)).toBe('abc-123');
    expect(res.getHeader('x-request-id')).toBe('abc-123');
  });

  it('replaces a missing, oversized or unsafe id', () => {
    for (const bad of [undefined, 'x'.repeat(200), 'a b', 'a\nb']) {
      const { req, res } = make(bad);
      expect(requestIdFor(req, res)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('problem details', () => {
  it('maps domain errors with their code and extensions', () => {
    const p = toProblem(new ValidationFailedError([{ field: 'documents.0.source_path', message: 'is required' }]), '/x');
    expect(p).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ field: 'documents.0.source_path' }], instance: '/x' });
    expect(toProblem(new DomainError('quota', 429, 'slow down'))).toMatchObject({ status: 429, code: 'quota', detail: 'slow down' });
  });

  it('maps Nest HTTP exceptions and hides internals of unknown errors', () => {
    expect(toProblem(new HttpException({ code: 'insufficient_scope', message: 'missing x' }, 403))).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
      detail: 'missing x',
    });
    const internal = toProblem(new Error('password=hunter2 in SQL'));
    expect(internal).toEqual(expect.objectContaining({ status: 500, code: 'internal_error' }));
    expect(JSON.stringify(internal)).not.toContain('hunter2');
  });
});
