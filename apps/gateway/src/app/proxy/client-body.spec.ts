import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { BodyStalledError, BodyTooSlowError, ClientBody } from './client-body';

/** A client's body as the gateway reads it: bytes written here arrive as the request's. */
function clientRequest(): PassThrough & IncomingMessage {
  return new PassThrough() as unknown as PassThrough & IncomingMessage;
}

const options = { limit: 1024 * 1024, idleMs: 60_000, deadlineMs: 60_000, minRate: 1024 * 1024 };

describe('ClientBody', () => {
  it('reads a body up to the read-ahead size whole before anything is sent upstream, and hands it on in order', async () => {
    const req = clientRequest();
    const body = new ClientBody(req, options);
    req.write('hello ');
    setImmediate(() => req.end('world'));
    expect(await body.prefetch(64 * 1024 + 1)).toBe(true);
    expect(body.ended).toBe(true);
    const out: Buffer[] = [];
    for await (const c of body.chunks()) out.push(c);
    expect(Buffer.concat(out).toString()).toBe('hello world');
  });

  it('stops reading ahead past the read-ahead size, the rest following as it arrives', async () => {
    const req = clientRequest();
    const body = new ClientBody(req, options);
    req.write(Buffer.alloc(10, 'a'));
    expect(await body.prefetch(5)).toBe(false);
    setImmediate(() => req.end('b'));
    const out: Buffer[] = [];
    for await (const c of body.chunks()) out.push(c);
    expect(Buffer.concat(out).toString()).toBe(`${'a'.repeat(10)}b`);
  });

  it('ends a body trickled with every pause under the idle limit once its whole allowance is spent (408)', async () => {
    const req = clientRequest();
    const body = new ClientBody(req, { ...options, idleMs: 60_000, deadlineMs: 200 });
    req.write('x');
    const trickle = setInterval(() => req.write('x'), 20);
    try {
      await expect(body.prefetch(64 * 1024 + 1)).rejects.toBeInstanceOf(BodyTooSlowError);
    } finally {
      clearInterval(trickle);
    }
  });

  it('still ends a body that pauses longer than the idle limit as stalled', async () => {
    const req = clientRequest();
    const body = new ClientBody(req, { ...options, idleMs: 50 });
    req.write('x');
    const e = await body.prefetch(64 * 1024 + 1).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(BodyStalledError);
    expect(e).not.toBeInstanceOf(BodyTooSlowError);
  });

  it('credits each byte received with time at the minimum rate', async () => {
    const req = clientRequest();
    // 100 ms up front, and 1 ms more per byte: 400 bytes buy another 400 ms.
    const body = new ClientBody(req, { ...options, deadlineMs: 100, minRate: 1000 });
    req.write(Buffer.alloc(400, 'x'));
    const later = setTimeout(() => req.end('y'), 250);
    try {
      expect(await body.prefetch(64 * 1024 + 1)).toBe(true);
    } finally {
      clearTimeout(later);
    }
  });
});
