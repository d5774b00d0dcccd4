import type { IncomingMessage } from 'node:http';
import { framingRefusal } from './request-framing';

/** A request as Node parsed it: its header lines in order, name then value. */
function request(rawHeaders: string[]): IncomingMessage {
  return { rawHeaders } as unknown as IncomingMessage;
}

describe('request framing', () => {
  it('accepts one valid Host: a name, an address, an IP literal, with or without a port, or empty', () => {
    for (const host of ['api.example.com', 'api.example.com:8443', '127.0.0.1:8080', '[::1]:8080', 'xn--bcher-kva.example', '']) {
      expect([host, framingRefusal(request(['Host', host, 'Accept', '*/*']))]).toEqual([host, undefined]);
    }
  });

  it('refuses more than one Host field line with 400 (RFC 9112 §3.2), whatever their case or values', () => {
    for (const lines of [
      ['Host', 'a.example', 'Host', 'b.example'],
      ['host', 'a.example', 'HOST', 'a.example'],
      ['Host', 'a.example', 'Accept', '*/*', 'hOsT', 'evil.example'],
    ]) {
      expect(framingRefusal(request(lines))).toEqual({ status: 400, code: 'bad_request', detail: 'the request has more than one Host header' });
    }
  });

  it('refuses a Host whose value is not a host with 400', () => {
    for (const host of ['a b', 'a.example/path', 'user@a.example', 'a.example:80x', '[::1', 'a%zz']) {
      expect([host, framingRefusal(request(['Host', host]))?.status]).toEqual([host, 400]);
    }
  });
});
