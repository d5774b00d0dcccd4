import type { IncomingMessage } from 'node:http';
import { framingRefusal, MAX_HEADER_FIELDS } from './request-framing';

/** A request as Node parsed it: its header lines in order, name then value, and repeated fields joined. */
function request(rawHeaders: string[]): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    headers[name] = name in headers ? `${headers[name]}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  return { rawHeaders, headers } as unknown as IncomingMessage;
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

  it('refuses more header field lines than MAX_HEADER_FIELDS with 431, counting repeated names once per line', () => {
    const lines = (n: number, name = (i: number) => `X-Pad-${i}`) => ['Host', 'a', ...Array.from({ length: n - 1 }, (_, i) => [name(i), 'x']).flat()];
    expect(framingRefusal(request(lines(MAX_HEADER_FIELDS)))).toBeUndefined();
    for (const many of [lines(MAX_HEADER_FIELDS + 1), lines(996), lines(996, () => 'X-Same')]) {
      expect(framingRefusal(request(many))).toEqual({ status: 431, code: 'request_header_fields_too_large', detail: `the request has more than ${MAX_HEADER_FIELDS} header fields` });
    }
  });

  it('accepts chunked alone as the transfer coding, in any case', () => {
    expect(framingRefusal(request(['Host', 'a', 'Transfer-Encoding', 'chunked']))).toBeUndefined();
    expect(framingRefusal(request(['Host', 'a', 'Transfer-Encoding', ' Chunked ']))).toBeUndefined();
  });

  it('refuses any other transfer coding with 501 (RFC 9112 §6.1), in one field line or several', () => {
    for (const lines of [
      ['Transfer-Encoding', 'gzip, chunked'],
      ['Transfer-Encoding', 'gzip', 'Transfer-Encoding', 'chunked'],
      ['Transfer-Encoding', 'deflate,chunked'],
      ['Transfer-Encoding', 'identity, chunked'],
      ['Transfer-Encoding', 'x-custom, chunked'],
      ['Transfer-Encoding', 'gzip'],
    ]) {
      expect([lines, framingRefusal(request(['Host', 'a', ...lines]))]).toEqual([lines, expect.objectContaining({ status: 501, code: 'not_implemented' })]);
    }
  });

  it('refuses chunked applied twice with 400', () => {
    for (const lines of [['Transfer-Encoding', 'chunked, chunked'], ['Transfer-Encoding', 'chunked', 'transfer-encoding', 'chunked']]) {
      expect(framingRefusal(request(['Host', 'a', ...lines]))).toMatchObject({ status: 400, code: 'bad_request' });
    }
  });
});
