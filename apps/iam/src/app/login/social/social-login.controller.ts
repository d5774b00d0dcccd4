import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { EnvelopeCipher } from '@platform/crypto';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiPublic, Clock } from '@platform/runtime';
import { ApiHtmlPage, ApiRedirect, ApiReturnTo } from '../../api-docs';
import { readCookie } from '../../session/cookies';
import { SessionService } from '../../session/session.service';
import { LoginPages } from '../login-pages';
import { safeReturnTo } from '../return-to';
import { SocialCallbackQuery } from './social-callback.query';
import { SocialLoginService } from './social-login.service';
import { readDto } from '../../read-dto';
import { IamConfig } from '../../../config/iam-config';

const SOCIAL_COOKIE = 'iam_social';

interface SocialState {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  exp: number;
}

/** `/login/social/start` sends the browser upstream; `/login/social/callback` signs it in here. */
@ApiTags('Sign-in pages')
@ApiPublic()
@Controller('login/social')
export class SocialLoginController {
  constructor(
    private readonly social: SocialLoginService,
    private readonly sessions: SessionService,
    private readonly pages: LoginPages,
    private readonly cipher: EnvelopeCipher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
  ) {}

  @Get('start')
  @ApiOperation({ summary: 'Starts sign-in at the upstream OpenID provider' })
  @ApiReturnTo()
  @ApiRedirect(302, 'To the provider')
  @ApiHtmlPage(404, 'Social login is not set up')
  @ApiHtmlPage(502, 'The provider cannot be reached')
  async start(@Res() res: Response, @Query('return_to') returnTo: unknown): Promise<void> {
    if (!this.social.enabled) return this.pages.message(res, 404, 'Not available', 'Sign-in through another provider is not set up here.', { href: '/login', label: 'Sign in' });
    let start;
    try {
      start = await this.social.start();
    } catch {
      return this.pages.message(res, 502, 'Provider unavailable', 'The sign-in provider cannot be reached right now. Try again later or sign in with your password.', { href: '/login', label: 'Sign in' });
    }
    const state: SocialState = { state: start.state, nonce: start.nonce, verifier: start.verifier, returnTo: safeReturnTo(returnTo), exp: this.clock.nowSec() + 600 };
    // Lax, so the cookie comes back on the provider's top-level redirect to the callback.
    res.cookie(SOCIAL_COOKIE, this.cipher.encrypt(JSON.stringify(state), 'iam-social'), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.secureCookies,
      path: '/login/social',
      maxAge: 600_000,
    });
    res.redirect(302, start.url);
  }

  @Get('callback')
  @ApiOperation({ summary: 'Return from the upstream provider' })
  @ApiQuery({ type: SocialCallbackQuery })
  @ApiRedirect(302, 'Signed in: on to return_to')
  @ApiHtmlPage(400, 'Sign-in expired (state)')
  @ApiHtmlPage(401, 'Cancelled at the provider')
  @ApiHtmlPage(403, 'Refused: unverified email or provider unreachable')
  async callback(@Req() req: Request, @Res() res: Response, @Query() query: unknown): Promise<void> {
    const { value: q } = readDto(SocialCallbackQuery, query);
    let saved: SocialState | undefined;
    try {
      saved = JSON.parse(this.cipher.decrypt(readCookie(req, SOCIAL_COOKIE) ?? '', 'iam-social')) as SocialState;
    } catch {
      saved = undefined;
    }
    res.clearCookie(SOCIAL_COOKIE, { path: '/login/social' });
    const again = { href: '/login', label: 'Back to sign-in' };
    if (!saved || saved.exp < this.clock.nowSec() || q.state === undefined || q.state !== saved.state) {
      return this.pages.message(res, 400, 'Sign-in expired', 'This sign-in link is no longer valid. Please start again.', again);
    }
    if (q.code === undefined) return this.pages.message(res, 401, 'Sign-in cancelled', 'The provider did not sign you in.', again);
    const outcome = await this.social.finish(q.code, saved.nonce, saved.verifier).catch(() => ({ kind: 'refused' as const, reason: 'The sign-in provider cannot be reached right now.' }));
    if (outcome.kind === 'refused') return this.pages.message(res, 403, 'Sign-in refused', outcome.reason, again);
    await this.sessions.start(req, res, { sub: outcome.userId, acr: outcome.acr, amr: outcome.amr });
    res.redirect(302, saved.returnTo);
  }
}
