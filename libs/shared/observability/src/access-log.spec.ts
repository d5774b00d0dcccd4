import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp from 'pino-http';
import { pinoHttpOptions, requestIdFor, writeAccessLog } from './logging.module';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { stream, lines: () => chunks.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** One request through a real server; returns once the response (and its log line) is done. */
async function serveOnce(handler: Handler, headers: Record<string, string>) {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/things?id=1`, { headers });
    await r.text();
    await new Promise((res) => setTimeout(res, 20));
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('the lean access log line', () => {
  const respond = (req: IncomingMessage, res: ServerResponse, status: number) => {
    (req as IncomingMessage & { principal?: object }).principal = { sub: 'user-1', clientId: 'app-1', tenantId: 'tenant-1' };
    res.setHeader('set-cookie', 'sid=secret-session');
    res.statusCode = status;
    res.end('{}');
  };

  it.each([201, 503])('matches what pino-http writes for a %i, redaction and principal included', async (status) => {
    const viaPinoHttp = capture();
    const middleware = pinoHttp(pinoHttpOptions('svc', 'info', false), viaPinoHttp.stream);
    await serveOnce((req, res) => middleware(req, res, () => respond(req, res, status)), { 'x-request-id': 'same-id', authorization: 'Bearer t' });

    const viaLeanPath = capture();
    const logger = pinoHttp(pinoHttpOptions('svc', 'info', false), viaLeanPath.stream).logger;
    await serveOnce((req, res) => {
      const id = requestIdFor(req, res);
      res.once('close', () => writeAccessLog(logger, Object.assign(req, { id }) as IncomingMessage & { id: string }, res, 3));
      respond(req, res, status);
    }, { 'x-request-id': 'same-id', authorization: 'Bearer t' });

    const [expected] = viaPinoHttp.lines();
    const [actual] = viaLeanPath.lines();
    const comparable = (l: Record<string, unknown>) => {
      const { time: _t, pid: _p, hostname: _h, responseTime: _r, err, ...rest } = l;
      return { ...rest, err: err ? (err as { message: string }).message : undefined };
    };
    expect(comparable(actual)).toEqual(comparable(expected));
    expect(actual).toMatchObject({ req: { id: 'same-id', method: 'GET', url: '/things?id=1' }, sub: 'user-1', client_id: 'app-1', tenant_id: 'tenant-1' });
    expect(JSON.stringify(actual)).not.toContain('secret-session');
    expect(actual['msg']).toBe(status >= 500 ? 'request errored' : 'request completed');
  });
});
