import type { IncomingMessage } from 'node:http';
import { endToEndHeaders, expectsContinue, unsendableReason, upstreamRequestHeaders } from './forward-headers';

function request(headers: IncomingMessage['headers'], httpVersion = '1.1'): IncomingMessage {
  return { headers, httpVersion, socket: { remoteAddress: '10.0.0.9' } } as unknown as IncomingMessage;
}

describe('forwarded headers', () => {
  it('drops hop-by-hop fields and every field the Connection header names (RFC 9110 §7.6.1)', () => {
    const out = endToEndHeaders({
      connection: 'close, X-Private',
      'x-private': '1',
      'keep-alive': 'timeout=5',
      'proxy-connection': 'keep-alive',
      'proxy-authorization': 'Basic eA==',
      te: 'trailers',
      trailer: 'x-sum',
      'transfer-encoding': 'chunked',
      upgrade: 'websocket',
      expect: '100-continue',
      host: 'gateway',
      authorization: 'Bearer t',
      'content-type': 'application/json',
    });
    expect(out).toEqual({ authorization: 'Bearer t', 'content-type': 'application/json' });
  });

  it('appends to X-Forwarded-For and sets Host and Proto', () => {
    const out = upstreamRequestHeaders(request({ host: 'api.example', 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https' }), 'rid');
    expect(out).toMatchObject({ 'x-forwarded-for': '1.2.3.4, 10.0.0.9', 'x-forwarded-host': 'api.example', 'x-forwarded-proto': 'https', 'x-request-id': 'rid' });
    expect(upstreamRequestHeaders(request({ host: 'h' }), 'rid')).toMatchObject({ 'x-forwarded-for': '10.0.0.9', 'x-forwarded-proto': 'http' });
  });

  it('names what the HTTP client would refuse to send', () => {
    expect(unsendableReason('/api/kb/x?q=1', { a: 'b', 'x-latin': 'caf\u00e9' })).toBeUndefined();
    expect(unsendableReason('http://elsewhere/x', {})).toMatch(/request target/);
    expect(unsendableReason('/a b', {})).toMatch(/request target/);
    expect(unsendableReason('/x', { 'bad name': 'v' })).toMatch(/not a valid token/);
    expect(unsendableReason('/x', { ok: ['fine', 'not\u0000fine'] })).toMatch(/header "ok"/);
    expect(unsendableReason('/x', { ok: 'wide \u20ac' })).toMatch(/header "ok"/);
  });

  it('recognises the 100-continue expectation only on HTTP/1.1, as Node does', () => {
    expect(expectsContinue(request({ expect: '100-Continue' }))).toBe(true);
    expect(expectsContinue(request({ expect: '100-continue' }, '1.0'))).toBe(false);
    expect(expectsContinue(request({ expect: 'other' }))).toBe(false);
    expect(expectsContinue(request({}))).toBe(false);
  });
});
