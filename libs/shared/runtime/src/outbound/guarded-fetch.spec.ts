import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AddressPolicy } from './address-policy';
import { guardedFetch } from './guarded-fetch';

describe('guarded outbound fetch', () => {
  let server: Server;
  let port: number;
  const limits = { maxBytes: 1024, timeoutMs: 500, maxRedirects: 2 };
  const loopbackAllowed = new AddressPolicy(['127.0.0.1']);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end('{"a":1}');
      else if (req.url === '/loop') res.writeHead(301, { location: '/loop' }).end();
      else if (req.url === '/once') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/to-other-address') res.writeHead(302, { location: `http://127.0.0.2:${port}/ok` }).end();
      else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(4096, 'x'));
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 1500).unref();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fetches from an allowed address and hands back the headers', async () => {
    const r = await guardedFetch(`http://127.0.0.1:${port}/ok`, loopbackAllowed, limits);
    expect([r.contentType, r.headers['cache-control'], r.body.toString()]).toEqual(['application/json', 'max-age=60', '{"a":1}']);
  });

  it('refuses private addresses by literal, by a hostname resolving to one, and behind a redirect', async () => {
    await expect(guardedFetch(`http://127.0.0.1:${port}/ok`, new AddressPolicy([]), limits)).rejects.toThrow(/private or loopback/);
    await expect(guardedFetch(`http://localhost:${port}/ok`, new AddressPolicy([]), limits)).rejects.toThrow(/private or loopback/);
    await expect(guardedFetch('http://169.254.169.254/latest/meta-data', new AddressPolicy([]), limits)).rejects.toThrow(/private or loopback/);
    await expect(guardedFetch(`http://127.0.0.1:${port}/to-other-address`, loopbackAllowed, limits)).rejects.toThrow(/private or loopback/);
  });

  it('caps size, time and redirects; with no redirects allowed a redirect is a refusal', async () => {
    await expect(guardedFetch(`http://127.0.0.1:${port}/big`, loopbackAllowed, limits)).rejects.toThrow(/larger than 1024 bytes/);
    await expect(guardedFetch(`http://127.0.0.1:${port}/slow`, loopbackAllowed, limits)).rejects.toThrow(/no answer within 500 ms/);
    await expect(guardedFetch(`http://127.0.0.1:${port}/loop`, loopbackAllowed, limits)).rejects.toThrow(/too many redirects/);
    await expect(guardedFetch(`http://127.0.0.1:${port}/nothing`, loopbackAllowed, limits)).rejects.toThrow(/HTTP 404/);
    expect((await guardedFetch(`http://127.0.0.1:${port}/once`, loopbackAllowed, limits)).url).toBe(`http://127.0.0.1:${port}/ok`);
    await expect(guardedFetch(`http://127.0.0.1:${port}/once`, loopbackAllowed, { ...limits, maxRedirects: 0 })).rejects.toThrow(/redirect \(HTTP 302\), which is not followed/);
  });
});
