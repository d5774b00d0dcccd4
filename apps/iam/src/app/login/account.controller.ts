import { applyDecorators, Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiFormBody, ApiHtmlPage, ApiRedirect, ApiSession } from '../api-docs';
import { CsrfForm, PasskeyRemovalForm, TotpConfirmForm } from './dto/page-forms';
import { AccountAccess, AccountAccessService } from './account-access';
import { CsrfService } from './csrf.service';
import { field, formError, hidden, html, Html, sendPage } from './html';
import { LoginPages } from './login-pages';
import { PasskeysRepository } from './passkeys/passkeys.repository';
import { TotpService } from './totp.service';
import { readDto } from '../read-dto';
import { CurrentSession, RequireSession } from '../session/session.guards';
import type { IamSession } from '../session/session.service';
import { SignInRequired } from '../session/sign-in-required';

/** Where signing in comes back to from any account page. */
const ACCOUNT_PAGE = '/login/account';

const NOTICES: Record<string, string> = {
  passkey: 'Passkey added.',
  'totp-off': 'Authenticator app removed.',
  'passkey-removed': 'Passkey removed.',
};

/** Changing a factor: a recent second factor first, the page's CSRF token, then back to the account. */
const AccountChange = (summary: string, form: new () => unknown) =>
  applyDecorators(
    ApiOperation({ summary, description: 'Needs a session that proved a second factor recently; otherwise the browser goes to sign in or step up.' }),
    ApiFormBody(form),
    ApiRedirect(303, 'Done, or to sign in or step up first'),
    ApiHtmlPage(403, 'The form expired (CSRF)'),
  );

/** The signed-in user's security page: authenticator app (TOTP) and passkeys. Without a session the browser signs in first. */
@ApiTags('Sign-in pages')
@ApiSession()
@RequireSession(ACCOUNT_PAGE)
@Controller('login/account')
export class AccountController {
  constructor(
    private readonly access: AccountAccessService,
    private readonly csrf: CsrfService,
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysRepository,
    private readonly pages: LoginPages,
  ) {}

  /** The session's account, or undefined after answering (the form expired, or step up first for changes). */
  private async require(session: IamSession, req: Request, res: Response, change: boolean, form?: CsrfForm): Promise<AccountAccess | undefined> {
    const access = await this.access.resolve(session);
    // The account is gone since the session was read: sign in again, as without a session.
    if (!access) throw new SignInRequired(ACCOUNT_PAGE);
    if (change && !this.csrf.valid(req, form?.csrf)) {
      this.pages.message(res, 403, 'Request expired', 'This form expired. Go back to your account and try again.');
      return undefined;
    }
    if (change && !access.mayChangeFactors) {
      res.redirect(303, '/login/step-up?return_to=%2Flogin%2Faccount');
      return undefined;
    }
    return access;
  }

  @Get()
  @ApiOperation({ summary: 'Account page: authenticator app, passkeys, sign out' })
  @ApiQuery({ name: 'added', required: false, enum: ['passkey'], description: 'Confirms a passkey was added' })
  @ApiQuery({ name: 'done', required: false, enum: ['totp-off', 'passkey-removed'], description: 'Confirms a change' })
  @ApiHtmlPage(200, 'The account')
  @ApiRedirect(303, 'To sign in without a session')
  async overview(@Req() req: Request, @Res() res: Response, @Query('added') added: unknown, @Query('done') done: unknown, @CurrentSession() session: IamSession): Promise<void> {
    const access = await this.require(session, req, res, false);
    if (!access) return;
    const { user } = access;
    const token = this.csrf.token(req, res);
    const keys = await this.passkeys.listFor(user.id);
    const notice = NOTICES[String(added ?? done ?? '')];
    const totpSection = user.totp_enabled_at
      ? html`<p>Authenticator app: <strong>on</strong></p>
<form method="post" action="/login/account/totp/disable">${hidden('csrf', token)}<button type="submit" class="secondary">Turn off authenticator app</button></form>`
      : html`<p>Authenticator app: <strong>off</strong></p>
<form method="post" action="/login/account/totp/start">${hidden('csrf', token)}<button type="submit">Set up authenticator app</button></form>`;
    const passkeyList: Html = keys.length
      ? html`<ul class="items">${keys.map(
          (k) => html`<li><span>${k.name} <span class="meta">added ${new Date(k.created_at).toISOString().slice(0, 10)}</span></span>
<form method="post" action="/login/account/passkeys/delete">${hidden('csrf', token)}${hidden('credential_id', k.credential_id)}<button type="submit" class="secondary" aria-label="Remove passkey ${k.name}">Remove</button></form></li>`,
        )}</ul>`
      : html`<p>No passkeys yet.</p>`;
    const body = html`<h1>Your account</h1>
<p class="lead">Signed in as <strong>${user.email}</strong> (assurance level ${session.acr}).</p>
${notice ? html`<div class="notice" role="status">${notice}</div>` : ''}
<h2>Two-step verification</h2>
${totpSection}
<h2>Passkeys</h2>
${passkeyList}
${hidden('csrf', token)}
${field({ name: 'passkey_name', label: 'Name for a new passkey', value: 'My passkey', hint: 'For example the device it lives on.' })}
${this.pages.passkeyButton('register', 'Add a passkey', '/login/account')}
<h2>Session</h2>
<form method="post" action="/login/logout">${hidden('csrf', token)}<button type="submit" class="secondary">Sign out</button></form>`;
    sendPage(res, { title: 'Your account', body, scripts: ['/login/assets/passkey.js'] });
  }

  @Post('totp/start')
  @AccountChange('Starts TOTP enrolment', CsrfForm)
  async startTotp(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession): Promise<void> {
    const access = await this.require(session, req, res, true, readDto(CsrfForm, body).value);
    if (!access) return;
    if (!access.user.totp_enabled_at) await this.totp.begin(access.user);
    res.redirect(303, '/login/account/totp');
  }

  @Get('totp')
  @ApiOperation({ summary: 'TOTP enrolment page: QR code and key' })
  @ApiHtmlPage(200, 'The enrolment')
  @ApiRedirect(303, 'To sign in, or to the account when no enrolment is started')
  async totpPage(@Req() req: Request, @Res() res: Response, @CurrentSession() session: IamSession): Promise<void> {
    const access = await this.require(session, req, res, false);
    if (!access) return;
    await this.renderEnrolment(req, res, access);
  }

  private async renderEnrolment(req: Request, res: Response, access: AccountAccess, error?: string): Promise<void> {
    const enrolment = await this.totp.enrolment(access.user);
    if (!enrolment) return void res.redirect(303, '/login/account');
    const body = html`<h1>Set up your authenticator app</h1>
<p class="lead">Scan the QR code with an authenticator app, then enter the 6-digit code it shows.</p>
<div class="qr" role="img" aria-label="QR code for your authenticator app">${new Html(enrolment.qrSvg)}</div>
<p>Can't scan it? Enter this key instead: <code class="secret" data-totp-secret>${enrolment.secret}</code></p>
${formError(error && !error.startsWith('That code') ? error : undefined)}
<form method="post" action="/login/account/totp/confirm" novalidate>
${hidden('csrf', this.csrf.token(req, res))}
${field({ name: 'code', label: 'Code from the app', autocomplete: 'one-time-code', inputmode: 'numeric', error: error?.startsWith('That code') ? error : undefined, autofocus: true })}
<button type="submit">Turn on</button>
</form>
<p class="meta"><a href="/login/account">Cancel</a></p>`;
    sendPage(res, { title: 'Set up your authenticator app', body, status: error ? 400 : 200 });
  }

  @Post('totp/confirm')
  @AccountChange('Turns TOTP on with a first code; shows 10 recovery codes once', TotpConfirmForm)
  @ApiHtmlPage(200, 'The recovery codes')
  @ApiHtmlPage(400, 'That code is not valid')
  async confirmTotp(@Req() req: Request, @Res() res: Response, @Body() input: unknown, @CurrentSession() session: IamSession): Promise<void> {
    const { value: form } = readDto(TotpConfirmForm, input);
    const access = await this.require(session, req, res, true, form);
    if (!access) return;
    const codes = await this.totp.confirm(access.user, form.code ?? '');
    if (!codes) return this.renderEnrolment(req, res, access, 'That code is not valid. Wait for the next code and try again.');
    const body = html`<h1>Authenticator app is on</h1>
<p class="lead">Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.</p>
<ol class="codes" data-recovery-codes>${codes.map((c) => html`<li><code>${c}</code></li>`)}</ol>
<p><a class="button" href="/login/account">Done</a></p>`;
    sendPage(res, { title: 'Authenticator app is on', body });
  }

  @Post('totp/disable')
  @AccountChange('Turns TOTP off', CsrfForm)
  async disableTotp(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession): Promise<void> {
    const access = await this.require(session, req, res, true, readDto(CsrfForm, body).value);
    if (!access) return;
    await this.totp.disable(access.user);
    res.redirect(303, '/login/account?done=totp-off');
  }

  @Post('passkeys/delete')
  @AccountChange('Removes a passkey', PasskeyRemovalForm)
  async removePasskey(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession): Promise<void> {
    const { value: form } = readDto(PasskeyRemovalForm, body);
    const access = await this.require(session, req, res, true, form);
    if (!access) return;
    // An id the form refuses names no passkey: nothing is removed, as for any unknown id.
    if (form.credential_id !== undefined) await this.passkeys.remove(access.user.id, form.credential_id);
    res.redirect(303, '/login/account?done=passkey-removed');
  }
}
