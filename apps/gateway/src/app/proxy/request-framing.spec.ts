import type { IncomingMessage } from 'node:http';
import { framingRefusal, MAX_HEADER_FIELDS, toOriginForm } from './request-framing';

/** A request as Node parsed it: its header lines in order, name then value, and repeated fields joined. */
function request(rawHeaders: string[], url = '/', httpVersion = '1.1'): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    headers[name] = name in headers ? `${headers[name]}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  const [httpVersionMajor, httpVersionMinor] = httpVersion.split('.').map(Number);
  return { rawHeaders, headers, url, httpVersion, httpVersionMajor, httpVersionMinor } as unknown as IncomingMessage;
}

describe('request framing', () => {
  it('accepts one valid Host: a name, an address, an IP literal, with or without a port, or empty', () => {
    for (const host of ['api.example.com', 'api.example.com:8443', '127.0.0.1:8080', '[::1]:8080', 'xn--bcher-kva.example', '']) {
      expect([host, framingRefusal(request(['Host', host, 'Accept', '*/*']))]).toEqual([host, undefined]);
    }
  });

  it('serves HTTP/1.0 and 1.1 only: 400 to a request line without a version (HTTP/0.9), 505 to another version', () => {
    for (const v of ['1.0', '1.1']) expect(framingRefusal(request(['Host', 'a'], '/', v))).toBeUndefined();
    expect(framingRefusal(request([], '/', '0.9'))).toMatchObject({ status: 400, code: 'bad_request' });
    for (const v of ['2.0', '1.2', '3.0']) expect(framingRefusal(request(['Host', 'a'], '/', v))).toMatchObject({ status: 505, code: 'http_version_not_supported' });
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

  it('refuses an HTTP/1.1 request without Host with 400, not an HTTP/1.0 one', () => {
    expect(framingRefusal(request(['Accept', '*/*']))).toEqual({ status: 400, code: 'bad_request', detail: 'an HTTP/1.1 request must have a Host header' });
    expect(framingRefusal(request(['Accept', '*/*'], '/', '1.0'))).toBeUndefined();
  });
});

describe('absolute-form request targets', () => {
  it('are rewritten to origin-form, the target authority replacing Host (RFC 9112 §3.2.2)', () => {
    for (const [target, path, host] of [
      ['http://a.example/api/kb/x?q=1', '/api/kb/x?q=1', 'a.example'],
      ['HTTPS://a.example:8443/oauth/token', '/oauth/token', 'a.example:8443'],
      ['http://[::1]:8080/x/../y', '/x/../y', '[::1]:8080'],
      ['http://a.example', '/', 'a.example'],
      ['http://a.example?x=1', '/?x=1', 'a.example'],
    ]) {
      const req = request(['Host', 'other.example', 'Accept', '*/*'], target);
      expect([target, toOriginForm(req)]).toEqual([target, undefined]);
      expect([target, req.url, req.headers.host, req.rawHeaders]).toEqual([target, path, host, ['Host', host, 'Accept', '*/*']]);
    }
    const noHost = request([], 'http://a.example/x', '1.0');
    expect(toOriginForm(noHost)).toBeUndefined();
    expect([noHost.url, noHost.headers.host, noHost.rawHeaders]).toEqual(['/x', 'a.example', ['Host', 'a.example']]);
  });

  it('leaves origin-form and asterisk-form alone', () => {
    for (const target of ['/api/kb/x', '//a/b', '*']) {
      const req = request(['Host', 'a'], target);
      expect(toOriginForm(req)).toBeUndefined();
      expect([req.url, req.headers.host]).toEqual([target, 'a']);
    }
  });

  it('refuses another scheme, user information, an empty or invalid host with 400', () => {
    for (const target of ['ftp://a.example/x', 'http://user:pw@a.example/x', 'http:///x', 'http://:80/x', 'http://a b/x', 'http://a.example/x#f', 'x:y', 'http:/x']) {
      const req = request(['Host', 'a'], target);
      expect([target, toOriginForm(req)?.status]).toEqual([target, 400]);
      expect(req.url).toBe(target);
    }
  });
});
