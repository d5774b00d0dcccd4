import { Controller, Get, INestApplication, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { TestJwksIssuer } from '@platform/testing';
import { AuthModule } from './auth.module';
import { CurrentPrincipal, Public, RequireScopes } from './decorators';
import type { Principal } from './principal';

@Controller()
class SampleController {
  @Get('open')
  @Public()
  open() {
    return { ok: true };
  }

  @Get('who')
  who(@CurrentPrincipal() p: Principal) {
    return { sub: p.sub, scopes: p.scopes };
  }

  @Get('manage')
  @RequireScopes('iam:clients.manage')
  manage() {
    return { ok: true };
  }
}

describe('JwtAuthGuard', () => {
  let issuer: TestJwksIssuer;
  let app: INestApplication;

  beforeAll(async () => {
    issuer = await new TestJwksIssuer().start();
    @Module({
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [() => ({ IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer, JWT_AUDIENCE: 'platform' })],
        }),
        AuthModule.forRoot({ global: true }),
      ],
      controllers: [SampleController],
    })
    class SampleModule {}
    const moduleRef = await Test.createTestingModule({ imports: [SampleModule] }).compile();
    app = moduleRef.createNestApplication();
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    await issuer.stop();
  });

  it('lets @Public routes through without a token', async () => {
    await request(app.getHttpServer()).get('/open').expect(200);
  });

  it('answers 401 with a Bearer challenge when the token is missing or bad', async () => {
    const missing = await request(app.getHttpServer()).get('/who').expect(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer error="invalid_request"/);
    const bad = await request(app.getHttpServer()).get('/who').set('Authorization', 'Bearer not.a.jwt').expect(401);
    expect(bad.headers['www-authenticate']).toMatch(/invalid_token/);
  });

  it('exposes the principal and checks scopes (403 when one is missing)', async () => {
    const token = await issuer.mint({ scope: 'kb:read', sub: 'svc-a' });
    const who = await request(app.getHttpServer()).get('/who').set('Authorization', `Bearer ${token}`).expect(200);
    expect(who.body).toEqual({ sub: 'svc-a', scopes: ['kb:read'] });
    const denied = await request(app.getHttpServer()).get('/manage').set('Authorization', `Bearer ${token}`).expect(403);
    expect(denied.headers['www-authenticate']).toMatch(/insufficient_scope/);
    const manager = await issuer.mint({ scope: ['iam:clients.manage', 'kb:read'] });
    await request(app.getHttpServer()).get('/manage').set('Authorization', `Bearer ${manager}`).expect(200);
  });
});
