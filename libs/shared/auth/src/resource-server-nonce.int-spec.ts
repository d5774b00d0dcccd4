import { All, Controller, Global, INestApplication, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { REDIS_CLIENT } from '@platform/contracts';
import { TestDpopKey, TestJwksIssuer } from '@platform/testing';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AuthModule } from './auth.module';
import { CurrentPrincipal, ProtectedResource, RequireScopes } from './decorators';
import { DPOP_NONCE_DEFAULT_WINDOW_SEC, DpopNonces } from './dpop-nonce';
import type { Principal } from './principal';
import { AUTH_CLOCK } from './tokens';

const PUBLIC = 'http://gateway.test:8080';
const RESOURCE = `${PUBLIC}/svc/mcp`;
const SECRET = 'nonce-secret-for-tests-0123456789abcdef';
const WINDOW_MS = DPOP_NONCE_DEFAULT_WINDOW_SEC * 1000;

@Controller('svc/mcp')
@ProtectedResource()
@RequireScopes('svc:use')
class McpLikeController {
  @All()
  who(@CurrentPrincipal() p: Principal) {
    return { sub: p.sub };
  }
}

describe('resource server: DPoP nonces (RFC 9449 §9)', () => {
  let issuer: TestJwksIssuer;
  let redis: Redis;
  let required: INestApplication;
  let optional: INestApplication;
  let nowMs = Date.now();

  const start = async (settings: Record<string, unknown>): Promise<INestApplication> => {
    @Global()
    @Module({ providers: [{ provide: REDIS_CLIENT, useValue: redis }], exports: [REDIS_CLIENT] })
    class RedisForTest {}
    @Module({
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [() => ({ IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer, JWT_AUDIENCE: 'platform', OAUTH_RESOURCE: RESOURCE, ...settings })],
        }),
        RedisForTest,
        AuthModule.forRoot({ global: true }),
      ],
      controllers: [McpLikeController],
    })
    class SampleModule {}
    const moduleRef = await Test.createTestingModule({ imports: [SampleModule] })
      .overrideProvider(AUTH_CLOCK)
      .useValue(() => nowMs)
      .compile();
    const app = moduleRef.createNestApplication();
    await app.init();
    return app;
  };

  beforeAll(async () => {
    issuer = await new TestJwksIssuer().start();
    redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { keyPrefix: `auth-nonce-int-${randomUUID()}:` });
    required = await start({ DPOP_NONCE_REQUIRED: true, DPOP_NONCE_SECRET: SECRET });
    optional = await start({ DPOP_NONCE_REQUIRED: false });
  });

  afterAll(async () => {
    await required.close();
    await optional.close();
    await redis.quit();
    await issuer.stop();
  });

  beforeEach(() => {
    nowMs = Date.now();
  });

  const bound = async (key: TestDpopKey) => issuer.mint({ audience: RESOURCE, scope: 'svc:use', sub: 'user-1', extra: { cnf: key.cnf }, expiresInSec: 3600 });
  /** A proof made at the injected clock's time, so moving the clock does not make it too old. */
  const proof = (key: TestDpopKey, token: string, nonce?: string) =>
    key.proof({ method: 'POST', url: RESOURCE, accessToken: token, iat: Math.floor(nowMs / 1000), ...(nonce === undefined ? {} : { nonce }) });
  const call = async (app: INestApplication, token: string, dpop: string) =>
    request(app.getHttpServer()).post('/svc/mcp').set('Authorization', `DPoP ${token}`).set('DPoP', dpop);

  const expectNonceChallenge = (r: request.Response): string => {
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^DPoP error="use_dpop_nonce", error_description="[^"]+", algs="/);
    const nonce = r.headers['dpop-nonce'];
    expect(typeof nonce).toBe('string');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    return nonce as string;
  };

  it('asks for a nonce first, then accepts the retry that carries it', async () => {
    const key = await TestDpopKey.generate();
    const token = await bound(key);
    const nonce = expectNonceChallenge(await call(required, token, await proof(key, token)));

    const ok = await call(required, token, await proof(key, token, nonce));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ sub: 'user-1' });
    // Still in the window it was issued for: nothing to rotate.
    expect(ok.headers['dpop-nonce']).toBeUndefined();
  });

  it('does not use up the proof id of a proof refused for its nonce', async () => {
    const key = await TestDpopKey.generate();
    const token = await bound(key);
    const jti = randomUUID();
    const first = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token, iat: Math.floor(nowMs / 1000), jti });
    const nonce = expectNonceChallenge(await call(required, token, first));
    const retry = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token, iat: Math.floor(nowMs / 1000), jti, nonce });
    expect((await call(required, token, retry)).status).toBe(200);
  });

  it('keeps accepting a nonce in the next window and hands out the current one', async () => {
    const key = await TestDpopKey.generate();
    const token = await bound(key);
    const nonce = expectNonceChallenge(await call(required, token, await proof(key, token)));
    nowMs += WINDOW_MS;
    const ok = await call(required, token, await proof(key, token, nonce));
    expect(ok.status).toBe(200);
    const fresh = ok.headers['dpop-nonce'];
    expect(typeof fresh).toBe('string');
    expect(fresh).not.toBe(nonce);
    expect((await call(required, token, await proof(key, token, fresh as string))).status).toBe(200);
  });

  it('refuses a stale nonce (two windows later) with a new one', async () => {
    const key = await TestDpopKey.generate();
    const token = await bound(key);
    const nonce = expectNonceChallenge(await call(required, token, await proof(key, token)));
    nowMs += 2 * WINDOW_MS;
    const stale = await call(required, token, await proof(key, token, nonce));
    const fresh = expectNonceChallenge(stale);
    expect(stale.headers['www-authenticate']).toMatch(/invalid or stale/);
    expect(fresh).not.toBe(nonce);
    expect((await call(required, token, await proof(key, token, fresh))).status).toBe(200);
  });

  it('refuses a nonce made with another key', async () => {
    const key = await TestDpopKey.generate();
    const token = await bound(key);
    const foreign = new DpopNonces({ secret: 'another-secret-of-at-least-32-characters', audience: RESOURCE }).issue(nowMs);
    const r = await call(required, token, await proof(key, token, foreign));
    expect(expectNonceChallenge(r)).not.toBe(foreign);
  });

  it('still checks the rest of the proof first: a wrong key is invalid_dpop_proof, not a nonce request', async () => {
    const key = await TestDpopKey.generate();
    const thief = await TestDpopKey.generate();
    const token = await bound(key);
    const r = await call(required, token, await proof(thief, token));
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof"/);
    expect(r.headers['dpop-nonce']).toBeUndefined();
  });

  it('leaves bearer tokens alone: nonces are about DPoP proofs', async () => {
    const token = await issuer.mint({ audience: RESOURCE, scope: 'svc:use', sub: 'user-2' });
    const r = await request(required.getHttpServer()).post('/svc/mcp').set('Authorization', `Bearer ${token}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ sub: 'user-2' });
  });

  it('with the setting off, accepts proofs without a nonce and sends none', async () => {
    const key = await TestDpopKey.generate();
    const token = await bound(key);
    const r = await call(optional, token, await proof(key, token));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ sub: 'user-1' });
    expect(r.headers['dpop-nonce']).toBeUndefined();
  });
});
