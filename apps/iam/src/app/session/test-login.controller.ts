import { createHmac, timingSafeEqual } from 'node:crypto';
import { Controller, Get, NotFoundException, Query, Res, UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { Clock } from '../clock';
import { UsersRepository } from '../users/users.repository';
import { SessionService } from './session.service';

/** The signature a test login link carries: HMAC-SHA256(secret, user id), base64url. */
export function testLoginSignature(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('base64url');
}

/**
 * `GET /login/test?user=<id>&sig=<hmac>&return_to=/oauth/authorize?...`: starts an aal1 session
 * for a user without a password. Exists only while IAM_TEST_LOGIN_ENABLED is true (never in
 * production); interactive login replaces it.
 */
@Controller('login')
export class TestLoginController {
  constructor(
    private readonly config: ConfigService,
    private readonly sessions: SessionService,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  @Get('test')
  async login(@Query('user') user: string, @Query('sig') sig: string, @Query('return_to') returnTo: string, @Res() res: Response) {
    const secret = this.config.get<string>('IAM_TEST_LOGIN_SECRET');
    const enabled = this.config.get<boolean>('IAM_TEST_LOGIN_ENABLED') && this.config.get('NODE_ENV') !== 'production' && !!secret;
    if (!enabled) throw new NotFoundException();
    const expected = Buffer.from(testLoginSignature(secret!, String(user ?? '')));
    const given = Buffer.from(String(sig ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new UnauthorizedException('bad test login signature');
    const found = await this.users.findById(String(user));
    if (!found || !found.active) throw new UnauthorizedException('unknown or inactive user');
    this.sessions.start(res, { sub: found.id, authTime: this.clock.nowSec(), acr: 'aal1', amr: ['pwd'] });
    // Only same-origin paths: an open redirect here would leak codes.
    const target = typeof returnTo === 'string' && returnTo.startsWith('/oauth/authorize?') ? returnTo : '/';
    res.redirect(302, target);
  }
}
