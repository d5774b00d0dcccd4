import { All, Controller, Get, Global, INestApplication, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { REDIS_CLIENT } from '@platform/contracts';
import { TestDpopKey, TestJwksIssuer } from '@platform/testing';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AuthModule } from './auth.module';
import { CurrentPrincipal, ProtectedResource, RequireScopes } from './decorators';
import type { Principal } from './principal';
import { AUTH_CLOCK } from './tokens';

const PUBLIC = 'http://gateway.test:8080';
const RESOURCE = `${PUBLIC}/svc/mcp`;
const METADATA = `${PUBLIC}/.well-known/oauth-protected-resource/svc/mcp`;

@Controller('svc/mcp')
@ProtectedResource()
@RequireScopes('svc:use')
class McpLikeController {
  @All()
  who(@CurrentPrincipal() p: Principal) {
    return { sub: p.sub };
  }
}

@Controller('plain')
class PlainController {
  @Get()
  who(@CurrentPrincipal() p: Principal) {
    return { sub: p.sub };
  }
}

describe('resource server: audiences, DPoP-bound tokens and challenges', () => {
  let issuer: TestJwksIssuer;
  let app: INestApplication;
  let redis: Redis;
  let nowMs = Date.now();

  beforeAll(async () => {
    issuer = await new TestJwksIssuer().start();
    redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { keyPrefix: `auth-int-${randomUUID()}:` });
    @Global()
    @Module({ providers: [{ provide: REDIS_CLIENT, useValue: redis }], exports: [REDIS_CLIENT] })
    class RedisForTest {}
    @Module({
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [() => ({ IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer, JWT_AUDIENCE: 'platform', OAUTH_RESOURCE: RESOURCE })],
        }),
        RedisForTest,
        AuthModule.forRoot({ global: true }),
      ],
      controllers: [McpLikeController, PlainController],
    })
    class SampleModule {}
    const moduleRef = await Test.createTestingModule({ imports: [SampleModule] })
      .overrideProvider(AUTH_CLOCK)
      .useValue(() => nowMs)
      .compile();
    app = moduleRef.createNestApplication();
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    await redis.quit();
    await issuer.stop();
  });

  beforeEach(() => {
    nowMs = Date.now();
  });

  const server = () => app.getHttpServer();
  const bound = async (key: TestDpopKey, aud = RESOURCE) => issuer.mint({ audience: aud, scope: 'svc:use', sub: 'user-1', extra: { cnf: key.cnf } });

  describe('audiences', () => {
    it('accepts its own resource and the configured legacy audience, refuses another resource', async () => {
      const own = await issuer.mint({ audience: RESOURCE, scope: 'svc:use' });
      await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${own}`).expect(200);
      const legacy = await issuer.mint({ audience: 'platform', scope: 'svc:use' });
      await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${legacy}`).expect(200);
      const several = await issuer.mint({ audience: [`${PUBLIC}/other`, RESOURCE], scope: 'svc:use' });
      await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${several}`).expect(200);

      const other = await issuer.mint({ audience: `${PUBLIC}/other/mcp`, scope: 'svc:use' });
      const refused = await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${other}`).expect(401);
      expect(refused.headers['www-authenticate']).toContain(`Bearer error="invalid_token", error_description="claim 'aud' invalid: unexpected audience", resource_metadata="${METADATA}"`);
    });
  });

  describe('challenges', () => {
    it('names the resource metadata on a protected resource, Bearer first, with a DPoP challenge', async () => {
      const r = await request(server()).post('/svc/mcp').expect(401);
      expect(r.headers['www-authenticate']).toBe(
        `Bearer error="invalid_request", error_description="a bearer access token is required", resource_metadata="${METADATA}", DPoP algs="ES256 ES384 ES512 EdDSA PS256 RS256", resource_metadata="${METADATA}"`,
      );
    });

    it('answers 403 insufficient_scope with the scope needed', async () => {
      const token = await issuer.mint({ audience: RESOURCE, scope: 'other' });
      const r = await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${token}`).expect(403);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", error_description="missing permission: svc:use", scope="svc:use", resource_metadata="/);
    });

    it('leaves resource_metadata out on routes that are not the protected resource', async () => {
      const r = await request(server()).get('/plain').expect(401);
      expect(r.headers['www-authenticate']).not.toContain('resource_metadata');
    });
  });

  describe('DPoP-bound tokens', () => {
    it('accepts the token with a proper proof', async () => {
      const key = await TestDpopKey.generate();
      const token = await bound(key);
      const proof = await key.proof({ method: 'POST', url: `${RESOURCE}?ignored=1`, accessToken: token });
      const r = await request(server()).post('/svc/mcp').set('Authorization', `DPoP ${token}`).set('DPoP', proof).expect(200);
      expect(r.body).toEqual({ sub: 'user-1' });
    });

    it('refuses the bound token as a plain bearer, even with a proof beside it', async () => {
      const key = await TestDpopKey.generate();
      const token = await bound(key);
      const r = await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${token}`).expect(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="the token is bound to a DPoP key/);
      const proof = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token });
      await request(server()).post('/svc/mcp').set('Authorization', `Bearer ${token}`).set('DPoP', proof).expect(401);
    });

    it('refuses a replayed proof', async () => {
      const key = await TestDpopKey.generate();
      const token = await bound(key);
      const proof = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token });
      await request(server()).post('/svc/mcp').set('Authorization', `DPoP ${token}`).set('DPoP', proof).expect(200);
      const replay = await request(server()).post('/svc/mcp').set('Authorization', `DPoP ${token}`).set('DPoP', proof).expect(401);
      expect(replay.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof", error_description="the DPoP proof was already used", algs="/);
    });

    it.each([
      ['a wrong htu', { url: `${PUBLIC}/elsewhere` }, /htu/],
      ['a wrong htm', { method: 'GET' }, /htm/],
      ['another access token (ath)', { accessToken: 'another-token' }, /ath/],
      ['no proof at all', null, /a DPoP proof is required/],
    ])('refuses %s', async (_label, change, reason) => {
      const key = await TestDpopKey.generate();
      const token = await bound(key);
      const req = request(server()).post('/svc/mcp').set('Authorization', `DPoP ${token}`);
      if (change) req.set('DPoP', await key.proof({ method: 'POST', url: RESOURCE, accessToken: token, ...change }));
      const r = await req.expect(401);
      expect(r.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof"/);
      expect(r.headers['www-authenticate']).toMatch(reason);
    });

    it('refuses a proof signed by another key than cnf.jkt names', async () => {
      const key = await TestDpopKey.generate();
      const thief = await TestDpopKey.generate();
      const token = await bound(key);
      const r = await request(server())
        .post('/svc/mcp')
        .set('Authorization', `DPoP ${token}`)
        .set('DPoP', await thief.proof({ method: 'POST', url: RESOURCE, accessToken: token }))
        .expect(401);
      expect(r.headers['www-authenticate']).toMatch(/another key/);
    });

    it('judges iat by the injected clock: a proof minted now is too old once time moves on', async () => {
      const key = await TestDpopKey.generate();
      const token = await issuer.mint({ audience: RESOURCE, scope: 'svc:use', extra: { cnf: key.cnf }, expiresInSec: 3600 });
      const proof = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token });
      nowMs += 5 * 60 * 1000;
      const r = await request(server()).post('/svc/mcp').set('Authorization', `DPoP ${token}`).set('DPoP', proof).expect(401);
      expect(r.headers['www-authenticate']).toMatch(/iat is outside/);
    });

    it('refuses an unbound token presented with the DPoP scheme', async () => {
      const key = await TestDpopKey.generate();
      const token = await issuer.mint({ audience: RESOURCE, scope: 'svc:use' });
      const r = await request(server())
        .post('/svc/mcp')
        .set('Authorization', `DPoP ${token}`)
        .set('DPoP', await key.proof({ method: 'POST', url: RESOURCE, accessToken: token }))
        .expect(401);
      expect(r.headers['www-authenticate']).toMatch(/^DPoP error="invalid_token", error_description="the token is not bound/);
    });
  });
});
