import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ClientsRepository } from '../clients/clients.repository';
import { CsrfService } from './csrf.service';
import { field, formError, hidden, html, Html, sendPage } from './html';
import { SocialLoginService } from './social/social-login.service';

export interface LoginFormState {
  email?: string;
  emailError?: string;
  passwordError?: string;
  error?: string;
  status?: number;
}

/** The sign-in page and the pieces other pages share with it. */
@Injectable()
export class LoginPages {
  constructor(
    private readonly csrf: CsrfService,
    private readonly clients: ClientsRepository,
    private readonly social: SocialLoginService,
  ) {}

  /** "to continue to <client>" when the sign-in serves an authorization request. */
  async continuingTo(returnTo: string): Promise<Html> {
    if (!returnTo.startsWith('/oauth/authorize?')) return html``;
    const clientId = new URLSearchParams(returnTo.slice(returnTo.indexOf('?') + 1)).get('client_id');
    if (!clientId) return html``;
    // Only a client already known by name: this page must never make iam fetch a metadata document.
    const client = await this.clients.findKnown(clientId);
    return client && !client.revokedAt ? html`<p class="lead">to continue to <strong>${client.name}</strong></p>` : html`<p class="lead">to continue to the application</p>`;
  }

  passkeyButton(mode: 'authenticate' | 'register', label: string, returnTo: string, opts: { secondary?: boolean; stepUp?: boolean } = {}): Html {
    const secondary = opts.secondary ?? true;
    const base = mode === 'register' ? '/login/account/passkeys' : '/login/passkey';
    return html`<button type="button" class="${secondary ? 'secondary' : ''}" data-passkey="${mode}" data-options="${base}/options" data-verify="${base}/verify" data-return-to="${returnTo}"${opts.stepUp ? html` data-step-up="true"` : ''} data-status="passkey-status">${label}</button>
<p id="passkey-status" class="error" role="alert" hidden></p>`;
  }

  async login(req: Request, res: Response, returnTo: string, state: LoginFormState = {}): Promise<void> {
    const token = this.csrf.token(req, res);
    const focusPassword = !!state.error || (!!state.passwordError && !state.emailError);
    const body = html`<h1>Sign in</h1>
${await this.continuingTo(returnTo)}
${formError(state.error)}
<form method="post" action="/login" novalidate>
${hidden('csrf', token)}${hidden('return_to', returnTo)}
${field({ name: 'email', label: 'Email', type: 'email', value: state.email, autocomplete: 'username webauthn', error: state.emailError, autofocus: !focusPassword })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: state.passwordError, autofocus: focusPassword })}
<button type="submit">Sign in</button>
</form>
<div class="divider">or</div>
<div class="stack">
${this.passkeyButton('authenticate', 'Sign in with a passkey', returnTo)}
${this.social.enabled ? html`<a class="button secondary" href="/login/social/start?return_to=${encodeURIComponent(returnTo)}">Continue with ${this.social.displayName}</a>` : ''}
</div>`;
    sendPage(res, { title: 'Sign in', body, status: state.status, scripts: ['/login/assets/passkey.js'] });
  }

  /** A page for a dead end (bad link, expired step): says what happened and where to go. */
  message(res: Response, status: number, title: string, text: string, link: { href: string; label: string } = { href: '/login/account', label: 'Go to your account' }): void {
    sendPage(res, { title, status, body: html`<h1>${title}</h1><p>${text}</p><p><a href="${link.href}">${link.label}</a></p>` });
  }
}
