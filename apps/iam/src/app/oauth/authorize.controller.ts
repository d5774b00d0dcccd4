import { Controller, Get, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiHtmlPage, ApiOAuthRateLimited, ApiRedirect, ApiSession } from '../api-docs';
import { AuthorizeQuery } from './dto/authorize.query';
import { PAGE_HEADERS } from '../login/html';
import { CurrentSession, OptionalSession } from '../session/session.guards';
import type { IamSession } from '../session/session.service';
import { AuthorizeService, UntrustedRedirectError } from './authorize.service';
import { OAuthErrorFilter } from './oauth-error';
import { AuthorizationParams } from './pushed-requests';
import { OAuthRateLimitGuard } from './rate-limit.guard';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function errorPage(res: Response, status: number, error: string, description: string): void {
  res.status(status).type('html').set(PAGE_HEADERS).send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>` +
      `<body><main><h1>This sign-in request cannot be completed</h1><p>${escapeHtml(description)}</p>` +
      `<p><code>${escapeHtml(error)}</code></p></main></body></html>`,
  );
}

/**
 * The group's rate-limit refusal (an OAuthError from the guard) answers 429 like the other /oauth
 * routes. The browser session is optional: without one the answer sends the browser to sign in.
 */
@ApiTags('OAuth')
@Controller('oauth')
@UseGuards(OAuthRateLimitGuard)
@UseFilters(OAuthErrorFilter)
export class AuthorizeController {
  constructor(private readonly authorizeService: AuthorizeService) {}

  @Get('authorize')
  @OptionalSession()
  @ApiOperation({
    summary: 'Authorization request (response_type=code, PKCE S256)',
    description:
      'Without a usable session the browser goes to the sign-in pages (then step-up and consent as needed) and comes back. The answer redirects to redirect_uri with `code`, `state` and `iss`, or with `error`. A request whose client or redirect_uri cannot be trusted, or whose `request_uri` is unknown, expired or used, gets an HTML error page instead of a redirect. Each parameter appears at most once, except `resource`. With `request_uri` (from POST /oauth/par) only the pushed parameters count; a client that requires PAR (or OAUTH_REQUIRE_PAR) gets `invalid_request` without one.',
  })
  @ApiSession()
  @ApiQuery({ type: AuthorizeQuery })
  @ApiRedirect(302, 'To redirect_uri (code or error), or to /login, /login/step-up or /login/consent')
  @ApiHtmlPage(400, 'The client or redirect_uri cannot be trusted, or a parameter is repeated (HTML error page)')
  @ApiOAuthRateLimited()
  async authorize(@Req() req: Request, @Res() res: Response, @CurrentSession() session: IamSession | undefined): Promise<void> {
    // The wire shape only (RFC 6749 §3.1, RFC 8707 §2): `resource` may repeat, every other
    // parameter appears once. AuthorizeService reads the fields through AuthorizeQuery once the
    // client and redirect_uri are trusted, so a bad field can go back to the client.
    const query: AuthorizationParams = {};
    for (const [k, v] of Object.entries(req.query)) {
      if (k === 'resource' && Array.isArray(v) && v.every((x) => typeof x === 'string')) query[k] = v as string[];
      else if (typeof v !== 'string') return errorPage(res, 400, 'invalid_request', `parameter ${k} must appear once`);
      else query[k] = v;
    }
    try {
      const outcome = await this.authorizeService.authorize(query, req.originalUrl, session);
      const next = encodeURIComponent(outcome.kind === 'redirect' ? '' : outcome.returnTo);
      switch (outcome.kind) {
        case 'redirect':
          // The URL carries the code (or an error for the client): no cache may keep it, and the
          // client's page must not pass it on as a Referer (RFC 9700 §4.2.4).
          res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
          return res.redirect(302, outcome.url);
        case 'login':
          return res.redirect(302, `/login?return_to=${next}`);
        case 'step_up':
          return res.redirect(302, `/login/step-up?return_to=${next}`);
        case 'consent':
          return res.redirect(302, `/login/consent?return_to=${next}`);
      }
    } catch (e) {
      if (e instanceof UntrustedRedirectError) return errorPage(res, 400, e.error, e.message);
      throw e;
    }
  }
}
