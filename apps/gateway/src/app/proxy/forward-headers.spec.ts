import type { IncomingMessage } from 'node:http';
import { endToEndHeaders, expectsContinue, trustedProxies, unsendableReason, upstreamRequestHeaders } from './forward-headers';

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

  it('forwards the TCP peer as the client and ignores what an untrusted client writes in X-Forwarded-For and -Proto', () => {
    const spoofed = request({ host: 'api.example', 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https' });
    expect(upstreamRequestHeaders(spoofed, 'rid')).toMatchObject({ 'x-forwarded-for': '10.0.0.9', 'x-forwarded-host': 'api.example', 'x-forwarded-proto': 'http', 'x-request-id': 'rid' });
    expect(upstreamRequestHeaders(spoofed, 'rid', trustedProxies(''))).toMatchObject({ 'x-forwarded-for': '10.0.0.9', 'x-forwarded-proto': 'http' });
    expect(upstreamRequestHeaders(spoofed, 'rid', trustedProxies('192.168.0.0/16'))).toMatchObject({ 'x-forwarded-for': '10.0.0.9' });
    expect(upstreamRequestHeaders(request({ host: 'h' }), 'rid')).toMatchObject({ 'x-forwarded-for': '10.0.0.9', 'x-forwarded-proto': 'http' });
  });

  it('believes a trusted proxy: the client is the nearest untrusted address it names, the scheme its X-Forwarded-Proto', () => {
    const viaIngress = request({ host: 'h', 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.3', 'x-forwarded-proto': 'https' });
    // The peer 10.0.0.9 and the ingress hop 10.0.0.3 are trusted; 203.0.113.7 is the client (6.6.6.6 is what it claimed).
    expect(upstreamRequestHeaders(viaIngress, 'rid', trustedProxies('uniquelocal'))).toMatchObject({ 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' });
    expect(upstreamRequestHeaders(viaIngress, 'rid', trustedProxies('10.0.0.9, 10.0.0.3'))).toMatchObject({ 'x-forwarded-for': '203.0.113.7' });
    // Only the peer trusted: the hop before it is the client.
    expect(upstreamRequestHeaders(viaIngress, 'rid', trustedProxies('10.0.0.9'))).toMatchObject({ 'x-forwarded-for': '10.0.0.3' });
  });

  it('trusts a number of hops: the ingress that appended the client, not a private address the client claims behind it', () => {
    // A client on a private network (10.8.0.5) claims 1.2.3.4; the ingress (the peer, 10.0.0.9) appended 10.8.0.5.
    const fromVpn = request({ host: 'h', 'x-forwarded-for': '1.2.3.4, 10.8.0.5' });
    expect(upstreamRequestHeaders(fromVpn, 'rid', trustedProxies('1'))).toMatchObject({ 'x-forwarded-for': '10.8.0.5' });
    // What a range would do: every private hop trusted, and the claim believed.
    expect(upstreamRequestHeaders(fromVpn, 'rid', trustedProxies('uniquelocal'))).toMatchObject({ 'x-forwarded-for': '1.2.3.4' });
    expect(upstreamRequestHeaders(fromVpn, 'rid', trustedProxies('0'))).toMatchObject({ 'x-forwarded-for': '10.0.0.9' });
    expect(upstreamRequestHeaders(fromVpn, 'rid', trustedProxies('2'))).toMatchObject({ 'x-forwarded-for': '1.2.3.4' });
  });

  it("puts the gateway's own fields before the client's, so a service keeping only its first fields keeps them", () => {
    const headers: IncomingMessage['headers'] = { host: 'api.example', 'x-forwarded-for': '1.2.3.4', 'x-request-id': 'spoofed' };
    for (let i = 0; i < 50; i++) headers[`x-pad-${i}`] = 'x';
    const out = upstreamRequestHeaders(request(headers), 'rid');
    expect(Object.keys(out).slice(0, 4)).toEqual(['x-request-id', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']);
    expect(out).toMatchObject({ 'x-request-id': 'rid', 'x-forwarded-for': '10.0.0.9', 'x-forwarded-host': 'api.example', 'x-pad-49': 'x' });
    expect(Object.keys(out)).toHaveLength(54);
  });

  it('forwards an empty client address for a socket already gone', () => {
    const gone = { headers: { host: 'h', 'x-forwarded-for': '1.2.3.4' }, httpVersion: '1.1', socket: {}, connection: {} } as unknown as IncomingMessage;
    expect(upstreamRequestHeaders(gone, 'rid')).toMatchObject({ 'x-forwarded-for': '' });
    expect(upstreamRequestHeaders(gone, 'rid', trustedProxies('1'))).toMatchObject({ 'x-forwarded-for': '' });
  });

  it('refuses a trusted-proxy entry that is not an address, naming the setting', () => {
    expect(() => trustedProxies('10.0.0.0/8, not-an-address')).toThrow(/GATEWAY_TRUSTED_PROXIES/);
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
