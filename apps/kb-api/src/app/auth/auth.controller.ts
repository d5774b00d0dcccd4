import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { LeanRoute } from '@platform/runtime';
import { ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { CookieOptions, Response } from 'express';
import { KbConfig } from '../../config/kb-config';
import { ApiGuarded, ApiNoAuth, ApiTenantHeader, ApiValidationFailed, ErrorBody, MessageBody, ValidationErrorBody } from '../api-docs';
import { KbMessage, KbValidationError } from '../errors/kb-errors';
import { AuthService, publicUser } from './auth.service';
import { IssuedTokenDto, LoginResponseDto, MeDto, TwoFactorEnrolmentDto, TwoFactorVerifiedDto } from './dto/auth-responses.dto';
import { ForgotPasswordDto, LoginDto, ResetPasswordDto, TokenIssueDto, TwoFactorCodeDto } from './dto/auth.dto';
import { PersonalAccessTokenOnly, Public, UserOnly } from './gates';
import { CSRF_COOKIE, SESSION_COOKIE } from './kb-auth.guard';
import { KbPrincipal, KbRequest } from './kb-principal';
import { isPersonalAccessTokenRequest } from './lean-requests';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { SessionsService } from './sessions.service';
import { TwoFactorService } from './two-factor.service';

const principalOf = (req: KbRequest): KbPrincipal => req.kbPrincipal!;
const ipOf = (req: KbRequest) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The spec's /api/auth table: session login and logout, personal access tokens, resets and 2FA. */
@ApiTags('Auth')
@Controller('api/auth')
export class AuthController {
  private readonly secureCookies: boolean;

  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly tokens: PersonalAccessTokensService,
    private readonly twoFactor: TwoFactorService,
    config: KbConfig,
  ) {
    this.secureCookies = config.get('KB_COOKIE_SECURE') ?? config.get('NODE_ENV') === 'production';
  }

  private cookieOptions(httpOnly: boolean, expires: Date): CookieOptions {
    return { httpOnly, secure: this.secureCookies, sameSite: 'lax', path: '/', expires };
  }

  @Post('login')
  @Public()
  @ApiNoAuth()
  @ApiOperation({ summary: 'Session login; sets the httpOnly kb_session cookie and the readable XSRF-TOKEN cookie' })
  @ApiOkResponse({ description: 'Signed in', type: LoginResponseDto })
  @ApiValidationFailed('Wrong or unknown credentials, inactive account, or `errors.code: ["two_factor_required"]`')
  @ApiResponse({ status: 429, description: 'Too many failures for this email and IP (validation shape, `errors.email`, Retry-After)', type: ValidationErrorBody })
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
  @ApiOperation({ summary: 'Ends the session and clears its cookies' })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiGuarded()
  @HttpCode(204)
  async logout(@Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const p = principalOf(req);
    if (p.sessionId) await this.sessions.destroy(p.sessionId);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.clearCookie(CSRF_COOKIE, { path: '/' });
  }

  @Get('me')
  @ApiOperation({ summary: 'The caller, their roles, permissions and projects in the active tenant, and their tenants' })
  @ApiTenantHeader()
  @ApiOkResponse({ description: 'The caller', type: MeDto })
  @ApiResponse({ status: 401, description: 'Guest: no session cookie or bearer token `{message: "Unauthenticated."}`', type: MessageBody })
  @ApiForbiddenResponse({ description: 'An integration token without a user, or a tenant refusal', type: ErrorBody })
  @UserOnly()
  @LeanRoute({ accepts: isPersonalAccessTokenRequest })
  me(@Req() req: KbRequest) {
    return this.auth.me(principalOf(req));
  }

  @Post('forgot-password')
  @Public()
  @ApiNoAuth()
  @ApiOperation({ summary: 'Mails a single-use reset link (60 minutes) when the email belongs to an active account; the answer never tells' })
  @ApiNoContentResponse({ description: 'Accepted' })
  @ApiValidationFailed()
  @ApiResponse({ status: 429, description: 'throttle:forgot (per IP per minute)', type: ValidationErrorBody })
  @HttpCode(204)
  async forgotPassword(@Body() body: ForgotPasswordDto, @Req() req: KbRequest) {
    await this.auth.forgotPassword(body.email, ipOf(req));
  }

  @Post('reset-password')
  @Public()
  @ApiNoAuth()
  @ApiOperation({ summary: 'Sets a new password with a reset link; ends every session and token of the account' })
  @ApiNoContentResponse({ description: 'Password changed' })
  @ApiValidationFailed('`errors.email` (bad, used or expired token) or `errors.password`')
  @HttpCode(204)
  async resetPassword(@Body() body: ResetPasswordDto) {
    await this.auth.resetPassword(body);
  }

  @Post('2fa/enable')
  @ApiOperation({ summary: 'Starts TOTP enrolment' })
  @ApiCreatedResponse({ description: 'Secret and recovery codes, shown once', type: TwoFactorEnrolmentDto })
  @ApiResponse({ status: 409, description: 'Already enabled', type: MessageBody })
  @ApiGuarded()
  @UserOnly()
  async enableTwoFactor(@Req() req: KbRequest) {
    const user = await this.auth.requireUser(principalOf(req));
    if (this.twoFactor.isEnabled(user)) throw new KbMessage(409, 'Two-factor authentication is already enabled.');
    return this.twoFactor.begin(user);
  }

  @Post('2fa/verify')
  @ApiOperation({ summary: 'Confirms enrolment, or checks a code once enabled' })
  @ApiOkResponse({ description: 'Verified', type: TwoFactorVerifiedDto })
  @ApiResponse({ status: 409, description: 'Enrolment not started', type: MessageBody })
  @ApiValidationFailed()
  @ApiGuarded()
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
  @ApiOperation({ summary: 'Turns two-factor authentication off with a current code or a recovery code' })
  @ApiNoContentResponse({ description: 'Disabled' })
  @ApiResponse({ status: 409, description: 'Not enabled', type: MessageBody })
  @ApiValidationFailed()
  @ApiGuarded()
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
  @ApiNoAuth()
  @ApiOperation({ summary: 'Issues a personal access token (abilities kb:read and kb:chat, 30 days) without session or CSRF' })
  @ApiCreatedResponse({ description: 'The token, shown once', type: IssuedTokenDto })
  @ApiValidationFailed('Wrong or unknown credentials, inactive account, or invalid body')
  @ApiResponse({ status: 429, description: 'After 5 failed attempts', type: ValidationErrorBody })
  @HttpCode(201)
  async issueToken(@Body() body: TokenIssueDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const user = await this.auth.checkCredentials('token', body, ipOf(req), res);
    return this.auth.issueToken(user, body.device_name);
  }

  @Post('token/revoke')
  @ApiSecurity('bearer')
  @ApiOperation({ summary: 'Deletes the calling personal access token (bearer callers only)' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiResponse({ status: 401, description: 'Guest: no session cookie or bearer token `{message: "Unauthenticated."}`', type: MessageBody })
  @ApiForbiddenResponse({ description: 'Not a personal access token', type: MessageBody })
  @PersonalAccessTokenOnly()
  @HttpCode(204)
  async revokeToken(@Req() req: KbRequest) {
    await this.tokens.revoke(principalOf(req).tokenId!);
  }
}
