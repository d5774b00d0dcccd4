import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface UpstreamUser {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  acr?: string;
  amr?: string[];
}

interface PendingCode {
  user: UpstreamUser;
  clientId: string;
  redirectUri: string;
  nonce?: string;
  challenge: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  let data = '';
  for await (const chunk of req) data += chunk;
  return new URLSearchParams(data);
}

/**
 * A small OpenID provider on 127.0.0.1 for the social-login test: discovery, JWKS, an authorize
 * page where the tester picks a user, and a token endpoint (client_secret_basic, PKCE S256) that
 * returns an ES256 id_token.
 */
export async function startUpstreamProvider(opts: { clientId: string; clientSecret: string; users: UpstreamUser[] }): Promise<{ issuer: string; close: () => Promise<void> }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'up1', alg: 'ES256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  let issuer = '';

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize' && req.method === 'GET') {
      const q = url.searchParams;
      if (q.get('client_id') !== opts.clientId || q.get('code_challenge_method') !== 'S256') return json(400, { error: 'invalid_request' });
      const keep = ['redirect_uri', 'state', 'nonce', 'code_challenge'].map((k) => `<input type="hidden" name="${k}" value="${esc(q.get(k) ?? '')}">`).join('');
      const buttons = opts.users.map((u) => `<button name="sub" value="${esc(u.sub)}">Sign in as ${esc(u.name)}</button>`).join(' ');
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html lang="en"><head><title>Upstream provider</title></head><body><main><h1>Upstream provider</h1><form method="post" action="/authorize">${keep}${buttons}</form></main></body></html>`);
    }
    if (url.pathname === '/authorize' && req.method === 'POST') {
      const form = await readBody(req);
      const user = opts.users.find((u) => u.sub === form.get('sub'));
      if (!user) return json(400, { error: 'access_denied' });
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { user, clientId: opts.clientId, redirectUri: form.get('redirect_uri')!, nonce: form.get('nonce') || undefined, challenge: form.get('code_challenge')! });
      const back = new URL(form.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', form.get('state')!);
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = await readBody(req);
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = basic.split(':').map(decodeURIComponent);
      if (id !== opts.clientId || secret !== opts.clientSecret) return json(401, { error: 'invalid_client' });
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifierOk = pending && createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url') === pending.challenge;
      if (!pending || !verifierOk || form.get('redirect_uri') !== pending.redirectUri) return json(400, { error: 'invalid_grant' });
      const { user } = pending;
      const idToken = await new SignJWT({
        email: user.email,
        email_verified: user.email_verified,
        name: user.name,
        ...(pending.nonce ? { nonce: pending.nonce } : {}),
        ...(user.acr ? { acr: user.acr } : {}),
        ...(user.amr ? { amr: user.amr } : {}),
      })
        .setProtectedHeader({ alg: 'ES256', kid: 'up1' })
        .setIssuer(issuer)
        .setAudience(opts.clientId)
        .setSubject(user.sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      return json(200, { access_token: randomBytes(16).toString('base64url'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
