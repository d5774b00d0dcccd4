import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AddressPolicy } from '@platform/runtime';
import { fetchPage } from './web-fetch';

describe('connector web fetch', () => {
  let server: Server;
  let port: number;
  const limits = { maxBytes: 1024, timeoutMs: 500, maxRedirects: 2 };
  const loopbackAllowed = new AddressPolicy(['127.0.0.1']);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') res.writeHead(200, { 'content-type': 'text/plain' }).end('fine');
      else if (req.url === '/loop') res.writeHead(301, { location: '/loop' }).end();
      else if (req.url === '/to-hostname') res.writeHead(302, { location: `http://127.0.0.2:${port}/ok` }).end();
      else if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(Buffer.alloc(4096, 'x'));
      } else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 1500).unref();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fetches from an allowed address', async () => {
    const page = await fetchPage(`http://127.0.0.1:${port}/ok`, loopbackAllowed, limits);
    expect([page.contentType, page.body.toString()]).toEqual(['text/plain', 'fine']);
  });

  it('refuses loopback by address, by a hostname resolving to it, and behind a redirect', async () => {
    await expect(fetchPage(`http://127.0.0.1:${port}/ok`, new AddressPolicy([]), limits)).rejects.toThrow(/private or loopback/);
    await expect(fetchPage(`http://localhost:${port}/ok`, new AddressPolicy([]), limits)).rejects.toThrow(/private or loopback/);
    await expect(fetchPage(`http://127.0.0.1:${port}/to-hostname`, loopbackAllowed, limits)).rejects.toThrow(/private or loopback/);
  });

  it('caps size, time and redirects', async () => {
    await expect(fetchPage(`http://127.0.0.1:${port}/chunked`, loopbackAllowed, limits)).rejects.toThrow(/larger than 1024 bytes/);
    await expect(fetchPage(`http://127.0.0.1:${port}/slow`, loopbackAllowed, limits)).rejects.toThrow(/no answer within 500 ms/);
    await expect(fetchPage(`http://127.0.0.1:${port}/loop`, loopbackAllowed, limits)).rejects.toThrow(/too many redirects/);
    await expect(fetchPage(`http://127.0.0.1:${port}/nothing`, loopbackAllowed, limits)).rejects.toThrow(/HTTP 404/);
  });
});
