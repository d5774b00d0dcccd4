import { Body, Controller, Get, Header, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic } from '@platform/runtime';
import type { Request, Response } from 'express';
import { ApiAsset, ApiFormBody, ApiHtmlPage, ApiRedirect, ApiReturnTo, ApiSession } from '../api-docs';
import { CsrfForm, PasswordSignInForm, SecondFactorForm } from './dto/page-forms';
import { CurrentSession, OptionalSession } from '../session/session.guards';
import { IamSession, SessionService } from '../session/session.service';
import { UsersRepository } from '../users/users.repository';
import { LOGIN_CSS, PASSKEY_JS } from './assets';
import { CsrfService } from './csrf.service';
import { field, hidden, html, sendPage } from './html';
import { LoginPages } from './login-pages';
import { PendingLoginStore } from './pending-login';
import { safeReturnTo } from './return-to';
import { SecondFactorService } from './second-factor.service';
import { PasswordLoginGuard, passwordOutcomeOf } from './strategies/password-login.guard';
import { readDto } from '../read-dto';

const INVALID = 'Email or password is incorrect.';
const THROTTLED = 'Too many failed attempts. Wait a few minutes, then try again.';

/** Sign-in with email and password, the second-factor step, step-up and sign-out. */
@ApiTags('Sign-in pages')
@Controller('login')
export class LoginController {
  constructor(
    private readonly pages: LoginPages,
    private readonly csrf: CsrfService,
    private readonly secondFactor: SecondFactorService,
    private readonly pending: PendingLoginStore,
    private readonly sessions: SessionService,
    private readonly users: UsersRepository,
  ) {}

  @Get('assets/login.css')
  @ApiPublic()
  @ApiOperation({ summary: "The sign-in pages' stylesheet" })
  @ApiAsset('text/css', 'CSS')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'public, max-age=300')
  css(): string {
    return LOGIN_CSS;
  }

  @Get('assets/passkey.js')
  @ApiPublic()
  @ApiOperation({ summary: "The sign-in pages' passkey script" })
  @ApiAsset('text/javascript', 'JavaScript')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'public, max-age=300')
  passkeyScript(): string {
    return PASSKEY_JS;
  }

  @Get()
  @ApiPublic()
  @ApiOperation({ summary: 'Sign-in page: email and password, passkey, social login when set up' })
  @ApiReturnTo()
  @ApiHtmlPage(200, 'The form')
  async form(@Req() req: Request, @Res() res: Response, @Query('return_to') returnTo: unknown): Promise<void> {
    await this.pages.login(req, res, safeReturnTo(returnTo));
  }

  @Post()
  @UseGuards(PasswordLoginGuard)
  @ApiPublic()
  @ApiOperation({
    summary: 'Password sign-in',
    description: 'Argon2id; a wrong password, an unknown email and a disabled account get the same answer. Users with TOTP continue at /login/second-factor.',
  })
  @ApiFormBody(PasswordSignInForm)
  @ApiRedirect(303, 'Signed in (to return_to), or on to the second factor')
  @ApiHtmlPage(400, 'Email or password missing or too long')
  @ApiHtmlPage(401, 'Email or password is incorrect')
  @ApiHtmlPage(403, 'The form expired (CSRF)')
  @ApiHtmlPage(429, 'Too many failed attempts for this account or IP')
  async submit(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const { value: form, errors } = readDto(PasswordSignInForm, body);
    const returnTo = safeReturnTo(form.return_to);
    const email = form.email ?? '';
    if (!this.csrf.valid(req, form.csrf)) {
      return this.pages.login(req, res, returnTo, { email, status: 403, error: 'This form expired. Please sign in again.' });
    }
    if (errors.email || errors.password) return this.pages.login(req, res, returnTo, { email, emailError: errors.email, passwordError: errors.password, status: 400 });

    const outcome = passwordOutcomeOf(req);
    if (outcome.kind === 'throttled') return this.pages.login(req, res, returnTo, { email, status: 429, error: THROTTLED });
    if (outcome.kind === 'invalid') return this.pages.login(req, res, returnTo, { email, status: 401, error: INVALID });
    if (outcome.user.totp_enabled_at) {
      this.pending.write(res, { sub: outcome.user.id, amr: ['pwd'] });
      return res.redirect(303, `/login/second-factor?return_to=${encodeURIComponent(returnTo)}`);
    }
    await this.sessions.start(req, res, { sub: outcome.user.id, acr: 'aal1', amr: ['pwd'] });
    res.redirect(303, returnTo);
  }

  private async codePage(req: Request, res: Response, opts: { action: string; returnTo: string; title: string; lead: string; error?: string; status?: number; passkey?: boolean }) {
    const token = this.csrf.token(req, res);
    const body = html`<h1>${opts.title}</h1>
${await this.pages.continuingTo(opts.returnTo)}
<p>${opts.lead}</p>
<form method="post" action="${opts.action}" novalidate>
${hidden('csrf', token)}${hidden('return_to', opts.returnTo)}
${field({ name: 'code', label: 'Authentication code', autocomplete: 'one-time-code', inputmode: 'text', hint: 'The 6-digit code from your authenticator app, or one of your recovery codes.', error: opts.error, autofocus: true })}
<button type="submit">Verify</button>
</form>
${opts.passkey ? html`<div class="divider">or</div>${this.pages.passkeyButton('authenticate', 'Use a passkey', opts.returnTo, { stepUp: opts.action === '/login/step-up' })}` : ''}`;
    sendPage(res, { title: opts.title, body, status: opts.status, scripts: opts.passkey ? ['/login/assets/passkey.js'] : [] });
  }

  @Get('second-factor')
  @ApiPublic()
  @ApiOperation({ summary: 'Second-factor page after the password' })
  @ApiReturnTo()
  @ApiHtmlPage(200, 'The form')
  @ApiHtmlPage(401, 'The sign-in is no longer pending')
  async secondFactorForm(@Req() req: Request, @Res() res: Response, @Query('return_to') returnTo: unknown): Promise<void> {
    if (!this.pending.read(req)) return this.pages.login(req, res, safeReturnTo(returnTo), { error: 'Your sign-in took too long. Please start again.', status: 401 });
    await this.codePage(req, res, { action: '/login/second-factor', returnTo: safeReturnTo(returnTo), title: 'Two-step verification', lead: 'Enter the code from your authenticator app.' });
  }

  @Post('second-factor')
  @ApiPublic()
  @ApiOperation({ summary: 'Checks the TOTP or recovery code and signs in (aal2)' })
  @ApiFormBody(SecondFactorForm)
  @ApiRedirect(303, 'Verified: on to return_to')
  @ApiHtmlPage(401, 'Wrong code, or the sign-in is no longer pending')
  @ApiHtmlPage(403, 'The form expired (CSRF)')
  @ApiHtmlPage(429, 'Too many failed codes for this account')
  async secondFactorSubmit(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const { value: form } = readDto(SecondFactorForm, body);
    const returnTo = safeReturnTo(form.return_to);
    const pending = this.pending.read(req);
    if (!pending) return this.pages.login(req, res, returnTo, { error: 'Your sign-in took too long. Please start again.', status: 401 });
    const page = (error: string, status: number) =>
      this.codePage(req, res, { action: '/login/second-factor', returnTo, title: 'Two-step verification', lead: 'Enter the code from your authenticator app.', error, status });
    if (!this.csrf.valid(req, form.csrf)) return page('This form expired. Please enter the code again.', 403);
    const user = await this.users.findForLogin(pending.sub);
    const result = user ? await this.secondFactor.check(user, form.code ?? '', req.ip ?? '') : 'invalid';
    if (result === 'throttled') return page(THROTTLED, 429);
    if (result === 'invalid' || !user) return page('That code is not valid. Check your authenticator app and try again.', 401);
    this.pending.clear(res);
    await this.sessions.start(req, res, { sub: user.id, acr: 'aal2', amr: [...pending.amr, ...result.amr, 'mfa'] });
    res.redirect(303, returnTo);
  }

  /** The session is signed in but below what the client asked for: prove a second factor now. */
  @Get('step-up')
  @OptionalSession()
  @ApiSession()
  @ApiOperation({ summary: 'A signed-in session proves a second factor (TOTP or passkey)' })
  @ApiReturnTo()
  @ApiHtmlPage(200, 'The form, or the sign-in page without a session')
  @ApiHtmlPage(403, 'The user has no second factor to prove')
  async stepUpForm(@Req() req: Request, @Res() res: Response, @Query('return_to') rawReturnTo: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    const returnTo = safeReturnTo(rawReturnTo);
    if (!session) return this.pages.login(req, res, returnTo);
    const user = await this.users.findForLogin(session.sub);
    if (!user) return this.pages.login(req, res, returnTo);
    const lead = 'This requires a second factor. Confirm it is you.';
    if (user.totp_enabled_at) {
      return this.codePage(req, res, { action: '/login/step-up', returnTo, title: 'Confirm it is you', lead, passkey: user.passkey_count > 0 });
    }
    if (user.passkey_count > 0) {
      const body = html`<h1>Confirm it is you</h1>${await this.pages.continuingTo(returnTo)}<p>${lead}</p>
${hidden('csrf', this.csrf.token(req, res))}
${this.pages.passkeyButton('authenticate', 'Use a passkey', returnTo, { secondary: false, stepUp: true })}`;
      return sendPage(res, { title: 'Confirm it is you', body, scripts: ['/login/assets/passkey.js'] });
    }
    this.pages.message(res, 403, 'A second factor is required', 'Set up an authenticator app or a passkey in your account, then try again.', { href: '/login/account', label: 'Set up a second factor' });
  }

  @Post('step-up')
  @OptionalSession()
  @ApiSession()
  @ApiOperation({ summary: 'Checks the code and raises the session to aal2' })
  @ApiFormBody(SecondFactorForm)
  @ApiRedirect(303, 'Verified: on to return_to')
  @ApiHtmlPage(401, 'Wrong code')
  @ApiHtmlPage(403, 'The form expired (CSRF)')
  @ApiHtmlPage(429, 'Too many failed codes for this account')
  async stepUpSubmit(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    const { value: form } = readDto(SecondFactorForm, body);
    const returnTo = safeReturnTo(form.return_to);
    if (!session) return this.pages.login(req, res, returnTo);
    const user = await this.users.findForLogin(session.sub);
    const page = (error: string, status: number) =>
      this.codePage(req, res, { action: '/login/step-up', returnTo, title: 'Confirm it is you', lead: 'This requires a second factor. Confirm it is you.', error, status, passkey: (user?.passkey_count ?? 0) > 0 });
    if (!this.csrf.valid(req, form.csrf)) return page('This form expired. Please enter the code again.', 403);
    const result = user ? await this.secondFactor.check(user, form.code ?? '', req.ip ?? '') : 'invalid';
    if (result === 'throttled') return page(THROTTLED, 429);
    if (result === 'invalid') return page('That code is not valid. Check your authenticator app and try again.', 401);
    await this.sessions.raise(session, 'aal2', result.amr);
    res.redirect(303, returnTo);
  }

  @Get('logout')
  @OptionalSession()
  @ApiPublic()
  @ApiOperation({ summary: 'Sign-out page' })
  @ApiHtmlPage(200, 'The form, or "signed out" without a session')
  async logoutForm(@Req() req: Request, @Res() res: Response, @CurrentSession() session: IamSession | undefined): Promise<void> {
    if (!session) return this.pages.message(res, 200, 'You are signed out', 'There is no active session in this browser.', { href: '/login', label: 'Sign in' });
    const body = html`<h1>Sign out</h1><p class="lead">End your session on this device?</p>
<form method="post" action="/login/logout">${hidden('csrf', this.csrf.token(req, res))}<button type="submit">Sign out</button></form>`;
    sendPage(res, { title: 'Sign out', body });
  }

  @Post('logout')
  @ApiPublic()
  @ApiOperation({ summary: 'Ends the session' })
  @ApiFormBody(CsrfForm)
  @ApiHtmlPage(200, 'Signed out')
  @ApiHtmlPage(403, 'The form expired (CSRF)')
  async logout(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    if (!this.csrf.valid(req, readDto(CsrfForm, body).value.csrf)) return this.pages.message(res, 403, 'Sign-out failed', 'This form expired. Please try again.', { href: '/login/logout', label: 'Sign out' });
    await this.sessions.end(req, res);
    this.pages.message(res, 200, 'You are signed out', 'Your session has ended.', { href: '/login', label: 'Sign in again' });
  }
}
