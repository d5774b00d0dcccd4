import { Controller, Get, INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import request from 'supertest';
import { IamSessionStrategy } from './iam-session.strategy';
import { CurrentSession, OptionalSession, RequireSession } from './session.guards';
import type { IamSession } from './session.service';
import { SessionRow, SessionsRepository } from './sessions.repository';
import { SignInRequired } from './sign-in-required';

const row: SessionRow = { id: 'session-1', user_id: 'user-1', auth_time: new Date('2030-01-01T00:00:00Z'), aal: 'aal1', amr: ['pwd'], expires_at: new Date('2030-01-01T08:00:00Z') };

/** Routes that show what the session guards leave for the handler, and what they answer instead. */
@Controller('probe')
class ProbeController {
  @Get('optional')
  @OptionalSession()
  optional(@CurrentSession() session: IamSession | undefined) {
    return { sub: session?.sub ?? null };
  }

  @Get('required')
  @RequireSession('/login/account')
  required(@CurrentSession() session: IamSession) {
    return { sub: session.sub, acr: session.acr };
  }

  @Get('account-gone')
  @RequireSession('/login/account')
  accountGone(): never {
    throw new SignInRequired('/login/account');
  }

  @Get('unguarded')
  unguarded(@CurrentSession() session: IamSession | undefined) {
    return { sub: session?.sub ?? null };
  }
}

describe('the browser session guards (iam-session strategy)', () => {
  let app: INestApplication;
  const withSession = { cookie: 'iam_session=live' };

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [ProbeController],
      providers: [
        IamSessionStrategy,
        { provide: SessionsRepository, useValue: { findLive: async (hash: string) => (hash === 'h:live' ? row : undefined) } },
        { provide: SecretHasher, useValue: { lookupKey: (token: string) => `h:${token}` } },
        Clock,
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  it('optional: hands the handler the session, or none, and never refuses', async () => {
    expect((await request(app.getHttpServer()).get('/probe/optional').set(withSession)).body).toEqual({ sub: 'user-1' });
    const without = await request(app.getHttpServer()).get('/probe/optional');
    expect(without.status).toBe(200);
    expect(without.body).toEqual({ sub: null });
    expect((await request(app.getHttpServer()).get('/probe/optional').set({ cookie: 'iam_session=ended' })).body).toEqual({ sub: null });
  });

  it("required: hands the handler the session; without one, sends the browser to sign in and back to the route's page", async () => {
    expect((await request(app.getHttpServer()).get('/probe/required').set(withSession)).body).toEqual({ sub: 'user-1', acr: 'aal1' });
    const without = await request(app.getHttpServer()).get('/probe/required').set({ cookie: 'iam_session=ended' });
    expect(without.status).toBe(303);
    expect(without.headers['location']).toBe('/login?return_to=%2Flogin%2Faccount');
  });

  it("answers a handler's SignInRequired the same way on a route that requires a session", async () => {
    const gone = await request(app.getHttpServer()).get('/probe/account-gone').set(withSession);
    expect(gone.status).toBe(303);
    expect(gone.headers['location']).toBe('/login?return_to=%2Flogin%2Faccount');
  });

  it('refuses to hand out a session no guard read (a server error, never "no session")', async () => {
    expect((await request(app.getHttpServer()).get('/probe/unguarded').set(withSession)).status).toBe(500);
  });
});
