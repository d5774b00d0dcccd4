import { Controller, Get, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SessionService } from '../session/session.service';
import { AuthorizeService, UntrustedRedirectError } from './authorize.service';
import { OAuthErrorFilter } from './oauth-error';
import { AuthorizationParams } from './pushed-requests';
import { OAuthRateLimitGuard } from './rate-limit.guard';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function errorPage(res: Response, status: number, error: string, description: string): void {
  res.status(status).type('html').set('Cache-Control', 'no-store').send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>` +
      `<body><main><h1>This sign-in request cannot be completed</h1><p>${escapeHtml(description)}</p>` +
      `<p><code>${escapeHtml(error)}</code></p></main></body></html>`,
  );
}

/** The group's rate-limit refusal (an OAuthError from the guard) answers 429 like the other /oauth routes. */
@Controller('oauth')
@UseGuards(OAuthRateLimitGuard)
@UseFilters(OAuthErrorFilter)
export class AuthorizeController {
  constructor(
    private readonly authorizeService: AuthorizeService,
    private readonly sessions: SessionService,
  ) {}

  @Get('authorize')
  async authorize(@Req() req: Request, @Res() res: Response): Promise<void> {
    const query: AuthorizationParams = {};
    for (const [k, v] of Object.entries(req.query)) {
      // RFC 8707 §2: `resource` may repeat; every other parameter appears once.
      if (k === 'resource' && Array.isArray(v) && v.every((x) => typeof x === 'string')) query[k] = v as string[];
      else if (typeof v !== 'string') return errorPage(res, 400, 'invalid_request', `parameter ${k} must appear once`);
      else query[k] = v;
    }
    try {
      const outcome = await this.authorizeService.authorize(query, req.originalUrl, await this.sessions.read(req));
      const next = encodeURIComponent(outcome.kind === 'redirect' ? '' : outcome.returnTo);
      switch (outcome.kind) {
        case 'redirect':
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
