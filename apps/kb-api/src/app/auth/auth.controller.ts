import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { CookieOptions, Response } from 'express';
import { KbMessage, KbValidationError } from '../errors/kb-errors';
import { kbEnv } from '../kb-config';
import { AuthService, publicUser } from './auth.service';
import { ForgotPasswordDto, LoginDto, ResetPasswordDto, TokenIssueDto, TwoFactorCodeDto } from './dto/auth.dto';
import { PersonalAccessTokenOnly, Public, UserOnly } from './gates';
import { CSRF_COOKIE, SESSION_COOKIE } from './kb-auth.guard';
import { KbPrincipal, KbRequest } from './kb-principal';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { SessionsService } from './sessions.service';
import { TwoFactorService } from './two-factor.service';

const principalOf = (req: KbRequest): KbPrincipal => req.kbPrincipal!;
const ipOf = (req: KbRequest) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The spec's /api/auth table: session login and logout, personal access tokens, resets and 2FA. */
@Controller('api/auth')
export class AuthController {
  private readonly secureCookies: boolean;

  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly tokens: PersonalAccessTokensService,
    private readonly twoFactor: TwoFactorService,
    config: ConfigService,
  ) {
    const env = kbEnv(config);
    this.secureCookies = env.get('KB_COOKIE_SECURE') ?? env.get('NODE_ENV') === 'production';
  }

  private cookieOptions(httpOnly: boolean, expires: Date): CookieOptions {
    return { httpOnly, secure: this.secureCookies, sameSite: 'lax', path: '/', expires };
  }

  @Post('login')
  @Public()
  @HttpCode(200)
  async login(@Body() body: LoginDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const user = await this.auth.checkCredentials('login', body, ipOf(req), res);
    const session = await this.sessions.create(user.id, user.tenant_id, {
      ip: ipOf(req),
      userAgent: req.headers['user-agent'],
      twoFactorPassed: this.twoFactor.isEnabled(user),
    });
    res.cookie(SESSION_COOKIE, session.token, this.cookieOptions(true, session.expiresAt));
    // Readable by the SPA, which echoes it in X-XSRF-TOKEN on unsafe requests (double submit).
    res.cookie(CSRF_COOKIE, session.csrfToken, this.cookieOptions(false, session.expiresAt));
    return { user: publicUser(user), abilities: [] };
  }

  @Post('logout')
  @HttpCode(204)
  async logout(@Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const p = principalOf(req);
    if (p.sessionId) await this.sessions.destroy(p.sessionId);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.clearCookie(CSRF_COOKIE, { path: '/' });
  }

  @Get('me')
  @UserOnly()
  me(@Req() req: KbRequest) {
    return this.auth.me(principalOf(req));
  }

  @Post('forgot-password')
  @Public()
  @HttpCode(204)
  async forgotPassword(@Body() body: ForgotPasswordDto, @Req() req: KbRequest) {
    await this.auth.forgotPassword(body.email, ipOf(req));
  }

  @Post('reset-password')
  @Public()
  @HttpCode(204)
  async resetPassword(@Body() body: ResetPasswordDto) {
    await this.auth.resetPassword(body);
  }

  @Post('2fa/enable')
  @UserOnly()
  async enableTwoFactor(@Req() req: KbRequest) {
    const user = await this.auth.requireUser(principalOf(req));
    if (this.twoFactor.isEnabled(user)) throw new KbMessage(409, 'Two-factor authentication is already enabled.');
    return this.twoFactor.begin(user);
  }

  @Post('2fa/verify')
  @UserOnly()
  @HttpCode(200)
  async verifyTwoFactor(@Body() body: TwoFactorCodeDto, @Req() req: KbRequest) {
    const user = await this.auth.requireUser(principalOf(req));
    if (!user.two_factor_secret) throw new KbMessage(409, 'Start two-factor enrolment first (POST /api/auth/2fa/enable).');
    const ok = this.twoFactor.isEnabled(user) ? await this.twoFactor.verify(user, body) : await this.twoFactor.confirm(user, body.code ?? '');
    if (!ok) throw new KbValidationError({ code: ['The two-factor code is invalid.'] });
    return { two_factor_enabled: true };
  }

  @Post('2fa/disable')
  @UserOnly()
  @HttpCode(204)
  async disableTwoFactor(@Body() body: TwoFactorCodeDto, @Req() req: KbRequest) {
    const user = await this.auth.requireUser(principalOf(req));
    if (!this.twoFactor.isEnabled(user)) throw new KbMessage(409, 'Two-factor authentication is not enabled.');
    if (!(await this.twoFactor.verify(user, body))) throw new KbValidationError({ code: ['The two-factor code is invalid.'] });
    await this.twoFactor.disable(user);
  }

  @Post('token')
  @Public()
  @HttpCode(201)
  async issueToken(@Body() body: TokenIssueDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const user = await this.auth.checkCredentials('token', body, ipOf(req), res);
    return this.auth.issueToken(user, body.device_name);
  }

  @Post('token/revoke')
  @PersonalAccessTokenOnly()
  @HttpCode(204)
  async revokeToken(@Req() req: KbRequest) {
    await this.tokens.revoke(principalOf(req).tokenId!);
  }
}
