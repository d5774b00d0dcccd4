import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, JWK, SignJWT, CryptoKey } from 'jose';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface MintOptions {
  scope?: string | string[];
  sub?: string;
  audience?: string | string[];
  issuer?: string;
  expiresInSec?: number;
  notBeforeSec?: number;
  kid?: string;
  extra?: Record<string, unknown>;
}

/**
 * A real JWKS server on 127.0.0.1 that mints ES256 tokens the way iam does, so services' auth is
 * tested through the same HTTP key fetch they use in production.
 */
export class TestJwksIssuer {
  private readonly keys: SigningKey[] = [];
  private server?: Server;
  jwksFetches = 0;
  url = '';

  constructor(readonly issuer = 'http://issuer.test', readonly audience = 'platform') {}

  get jwksUrl(): string {
    return `${this.url}/.well-known/jwks.json`;
  }

  async start(): Promise<this> {
    await this.addKey();
    this.server = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json') {
        this.jwksFetches++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: this.keys.map((k) => k.publicJwk) }));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Publishes a new key and makes it the signing key; returns its kid. */
  async addKey(): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    this.keys.unshift({ kid, privateKey, publicJwk });
    return kid;
  }

  /** A key that signs but is never published (for "unknown kid" tests). */
  async unpublishedKey(): Promise<SigningKey> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    return { kid: randomUUID(), privateKey, publicJwk: await exportJWK(publicKey) };
  }

  removeKey(kid: string): void {
    const i = this.keys.findIndex((k) => k.kid === kid);
    if (i >= 0) this.keys.splice(i, 1);
  }

  async mint(options: MintOptions = {}, key: SigningKey = this.keys[0]): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const scope = Array.isArray(options.scope) ? options.scope.join(' ') : options.scope ?? '';
    const jwt = new SignJWT({ scope, client_id: 'test-client', ...options.extra })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: options.kid ?? key.kid })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience)
      .setSubject(options.sub ?? 'test-client')
      .setIssuedAt(now)
      .setJti(randomUUID())
      .setExpirationTime(now + (options.expiresInSec ?? 300));
    if (options.notBeforeSec !== undefined) jwt.setNotBefore(now + options.notBeforeSec);
    return jwt.sign(key.privateKey);
  }
}
