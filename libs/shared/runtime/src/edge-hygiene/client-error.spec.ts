import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from './client-error';

/** Everything the server sends on one raw connection until it closes it. */
async function exchange(port: number, chunks: string[], between?: (received: string) => boolean): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  const closed = once(socket, 'close');
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0 && between) {
      // Wait for the answer to the previous request before sending the next one.
      while (!between(received)) await new Promise((r) => setTimeout(r, 5));
    }
    socket.write(chunk, 'latin1');
  }
  await closed;
  return received;
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.lastIndexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('answers to requests Node’s HTTP parser refuses', () => {
  let server: Server;
  let port: number;
  let releaseSlow: () => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') {
        releaseSlow = () => res.end('slow done');
        return;
      }
      res.end('ok');
    });
    answerClientErrors(server, (status, code, message) => ({ error: { code, message, status } }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((r) => server.close(r)));

  it.each([
    ['NUL in a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-Tenant-Id: a\0b\r\n\r\n'],
    ['a control byte in a header name', 'GET / HTTP/1.1\r\nHost: x\r\nX-Te\x01nant: a\r\n\r\n'],
    ['a malformed request line', 'GET /\0 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
  ])('answers %s with a JSON 400 in the given shape and closes the connection', async (_name, raw) => {
    const answer = await exchange(port, [raw]);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/);
    expect(bodyOf(answer)).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('not well-formed HTTP'), status: 400 } });
  });

  it('answers headers over Node’s limit 431 as Node does, in JSON', async () => {
    const answer = await exchange(port, [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`]);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(answer)).toMatchObject({ error: { code: 'request_header_fields_too_large' } });
  });

  it('answers a malformed request after a completed one on a keep-alive connection', async () => {
    const answer = await exchange(port, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\0\r\n\r\n'], (r) => r.endsWith('ok'));
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nokHTTP\/1\.1 400 Bad Request\r\n/);
    expect(bodyOf(answer)).toMatchObject({ error: { code: 'bad_request' } });
  });

  it('only closes a connection whose earlier request is still being answered', async () => {
    // Pipelined: the malformed request arrives while /slow has no answer yet; a 400 written now
    // would be read as /slow's answer.
    const answer = await exchange(port, ['GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\0\r\n\r\n']);
    releaseSlow();
    expect(answer).not.toContain('400 Bad Request');
  });
});
