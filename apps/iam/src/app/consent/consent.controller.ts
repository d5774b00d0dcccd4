import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiFormBody, ApiHtmlPage, ApiRedirect, ApiReturnTo, ApiSession } from '../api-docs';
import { ConsentForm } from '../login/dto/page-forms';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { CsrfService } from '../login/csrf.service';
import { hidden, html, Html, sendPage } from '../login/html';
import { LoginPages } from '../login/login-pages';
import { AuthorizeService } from '../oauth/authorize.service';
import { grantScopes } from '../oauth/scopes';
import { CurrentSession, OptionalSession } from '../session/session.guards';
import type { IamSession } from '../session/session.service';
import { ConsentsRepository } from './consents.repository';
import { readDto } from '../read-dto';

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are',
  profile: 'See your name',
  email: 'See your email address',
  offline_access: 'Stay connected when you are not using it',
};

/**
 * Who a client that was never registered is, beyond the name it gave itself: the host that
 * publishes its metadata document (the draft asks for it to be shown), or that nobody vouched for it.
 */
function identity(client: OAuthClient): Html {
  if (client.registrationType === 'metadata_document') {
    return html`<p class="meta">Identified by <code>${new URL(client.clientId).host}</code>, which publishes this application's details.</p>`;
  }
  if (client.registrationType === 'dynamic') return html`<p class="meta">This application registered itself: its name has not been verified.</p>`;
  return html``;
}

/**
 * Asks the user before a third-party client gets tokens; first-party clients never come here.
 * The session is optional: a request that is not valid is refused first, and without a session
 * the page is the sign-in form, which comes back here.
 */
@ApiTags('Sign-in pages')
@ApiSession()
@OptionalSession()
@Controller('login/consent')
export class ConsentController {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly consents: ConsentsRepository,
    private readonly authorize: AuthorizeService,
    private readonly csrf: CsrfService,
    private readonly pages: LoginPages,
  ) {}

  /** The authorization request behind return_to, re-checked: client, redirect and scopes. */
  private async request(returnTo: unknown) {
    if (typeof returnTo !== 'string' || !returnTo.startsWith('/oauth/authorize?')) return undefined;
    // A pushed request (RFC 9126) is read through its request_uri, without spending it.
    const query = await this.authorize.pendingRequest(Object.fromEntries(new URLSearchParams(returnTo.slice(returnTo.indexOf('?') + 1))));
    if (!query) return undefined;
    // Only a client already known (authorize resolved it before sending the browser here): the
    // page is open to anyone and must never make iam fetch a metadata document.
    const client = query['client_id'] ? await this.clients.findKnown(query['client_id']) : null;
    if (!client || client.revokedAt) return undefined;
    let scopes: string[];
    try {
      scopes = grantScopes(query['scope'], client.scopes);
    } catch {
      return undefined;
    }
    return { query, client, scopes, returnTo };
  }

  @Get()
  @ApiOperation({ summary: 'Consent page for a third-party client' })
  @ApiReturnTo('The authorization request (`/oauth/authorize?…`) to consent to')
  @ApiHtmlPage(200, 'The scopes to allow, or the sign-in page without a session')
  @ApiHtmlPage(400, 'The authorization request is not valid')
  async page(@Req() req: Request, @Res() res: Response, @Query('return_to') returnTo: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    const request = await this.request(returnTo);
    if (!request) return this.pages.message(res, 400, 'Request not valid', 'This authorization request cannot be completed.');
    if (!session) return this.pages.login(req, res, request.returnTo);
    const token = this.csrf.token(req, res);
    const body = html`<h1>Allow access?</h1>
<p class="lead"><strong>${request.client.name}</strong> wants to:</p>
${identity(request.client)}
<ul class="scopes">${request.scopes.map((s) => html`<li>${SCOPE_TEXT[s] ?? html`Use <code>${s}</code>`}</li>`)}</ul>
<p class="meta">This application is not run by us. Allow it only if you trust it.</p>
<form method="post" action="/login/consent">
${hidden('csrf', token)}${hidden('return_to', request.returnTo)}
<div class="row"><button type="submit" name="decision" value="deny" class="secondary">Deny</button>
<button type="submit" name="decision" value="allow" autofocus>Allow</button></div>
</form>`;
    sendPage(res, { title: `Allow ${request.client.name}?`, body });
  }

  @Post()
  @ApiOperation({ summary: 'Allow or deny; a denial goes back to the client as access_denied' })
  @ApiFormBody(ConsentForm)
  @ApiRedirect(303, 'Back to the authorization request, or to the client with access_denied')
  @ApiHtmlPage(400, 'The authorization request is not valid')
  @ApiHtmlPage(403, 'The form expired (CSRF)')
  async decide(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    const { value: form } = readDto(ConsentForm, body);
    const request = await this.request(form.return_to);
    if (!request) return this.pages.message(res, 400, 'Request not valid', 'This authorization request cannot be completed.');
    if (!session) return this.pages.login(req, res, request.returnTo);
    if (!this.csrf.valid(req, form.csrf)) return this.pages.message(res, 403, 'Request expired', 'This form expired. Return to the application and try again.');
    // A decision the form refuses (missing or unknown) is a refusal, never a grant.
    if (form.decision === 'allow') {
      await this.consents.grant(session.sub, request.client.clientId, request.scopes);
      return res.redirect(303, request.returnTo);
    }
    const denied = await this.authorize.denied(request.query).catch(() => undefined);
    if (!denied) return this.pages.message(res, 400, 'Request not valid', 'This authorization request cannot be completed.');
    res.redirect(303, denied);
  }
}
