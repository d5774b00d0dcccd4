import { SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { startIam } from './iam-test-env';

const SECRET = 'lean-secret-0123456789abcdef';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

/** Headers that legitimately differ between two responses. */
const VARYING = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'ratelimit', 'content-length', 'etag']);

type Case = [name: string, headers: Record<string, string>, body: string];

/**
 * POST /oauth/token is served by the lean request path; the Nest route still exists and is what a
 * request with a query string reaches. Both must answer every request alike.
 */
describe('iam: POST /oauth/token on the lean request path', () => {
  let iam: RunningService & { issuer: string };

  beforeAll(async () => {
    iam = await startIam({ OAUTH_RATE_LIMIT: '1000' });
    const hasher = iam.app.get(SecretHasher);
    const clients = iam.app.get(ClientsRepository);
    await clients.upsert({
      clientId: 'lean-a',
      name: 'Lean A',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['evidence:review', 'kb:read'],
      secretHash: hasher.hash(SECRET),
    });
    await clients.upsert({
      clientId: 'lean-public',
      name: 'Lean public',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: ['http://127.0.0.1/cb'],
      scopes: ['openid'],
    });
  });

  afterAll(() => iam.stop());

  const send = async (path: string, headers: Record<string, string>, body: string) => {
    const r = await fetch(`${iam.url}${path}`, { method: 'POST', headers, body });
    const text = await r.text();
    const kept = Object.fromEntries([...r.headers].filter(([k]) => !VARYING.has(k)));
    let json: Record<string, unknown> | string = text;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON: compare the text */
    }
    if (typeof json === 'object' && typeof json['access_token'] === 'string') json['access_token'] = '<jwt>';
    // Problem documents name the URL asked for; the Nest route is reached with a query string.
    if (typeof json === 'object' && typeof json['instance'] === 'string') json['instance'] = json['instance'].split('?')[0];
    return { status: r.status, headers: kept, json, requestId: r.headers.get('x-request-id') };
  };

  const cases: Case[] = [
    ['client_credentials via Basic', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, 'grant_type=client_credentials&scope=kb%3Aread'],
    ['client_secret_post', { 'content-type': `${FORM}; charset=utf-8` }, `grant_type=client_credentials&client_id=lean-a&client_secret=${SECRET}`],
    ['wrong secret', { 'content-type': FORM, authorization: basic('lean-a', 'nope') }, 'grant_type=client_credentials'],
    ['malformed Basic', { 'content-type': FORM, authorization: 'Basic %%%' }, 'grant_type=client_credentials'],
    ['two auth methods', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, `grant_type=client_credentials&client_secret=${SECRET}`],
    ['no grant_type', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, 'scope=kb%3Aread'],
    ['unsupported grant', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, 'grant_type=password'],
    ['repeated parameter', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, 'grant_type=client_credentials&grant_type=client_credentials'],
    ['unknown scope', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, 'grant_type=client_credentials&scope=admin'],
    ['public client', { 'content-type': FORM }, 'grant_type=client_credentials&client_id=lean-public'],
    ['no client', { 'content-type': FORM }, 'grant_type=client_credentials'],
    ['nested form keys', { 'content-type': FORM, authorization: basic('lean-a', SECRET) }, 'grant_type=client_credentials&scope[x]=1'],
    ['body over the parser limit', { 'content-type': FORM }, `grant_type=client_credentials&pad=${'x'.repeat(120_000)}`],
  ];

  it.each(cases)('%s: same status, headers and body as the Nest route', async (_name, headers, body) => {
    const lean = await send('/oauth/token', headers, body);
    const nest = await send('/oauth/token?via=nest', headers, body);
    expect(lean.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect({ status: lean.status, headers: lean.headers, json: lean.json }).toEqual({ status: nest.status, headers: nest.headers, json: nest.json });
  });

  it('counts lean requests against the per-IP rate limit', async () => {
    const headers = { 'content-type': FORM, authorization: basic('lean-a', SECRET) };
    const first = Number((await fetch(`${iam.url}/oauth/token`, { method: 'POST', headers, body: 'grant_type=client_credentials' })).headers.get('x-ratelimit-remaining'));
    const second = Number((await fetch(`${iam.url}/oauth/token`, { method: 'POST', headers, body: 'grant_type=client_credentials' })).headers.get('x-ratelimit-remaining'));
    expect(second).toBe(first - 1);
  });

  it('records lean token requests in the HTTP histogram', async () => {
    const text = await (await fetch(`${iam.url}/metrics`)).text();
    expect(text).toMatch(/http_server_request_duration_seconds_count\{service="iam",method="POST",route="\/oauth\/token",status="200"\} \d+/);
  });
});
