import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { ProblemDetailsFilter } from '@platform/observability';
import type { HttpAppOptions } from '@platform/runtime';
import type { Request } from 'express';
import { OAuthErrorFilter } from './app/oauth/oauth-error';
import { OPENAPI_SPEC } from './openapi-spec';

const OAUTH_PREFIX = '/oauth/';

/**
 * Errors raised before routing (the edge layer's refusals, a malformed or oversized body, an
 * unknown path) under /oauth answer RFC 6749's `{error, error_description}` like the OAuth
 * endpoints themselves; the rest of iam answers problem+json.
 */
@Catch()
export class IamErrorFilter implements ExceptionFilter {
  private readonly oauth = new OAuthErrorFilter();
  private readonly problem = new ProblemDetailsFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const path = host.switchToHttp().getRequest<Request>().path ?? '';
    (path.startsWith(OAUTH_PREFIX) ? this.oauth : this.problem).catch(exception, host);
  }
}

/** Unauthenticated form posts: credentials and tokens fit in a few hundred bytes. */
const SMALL_BODY_BYTES = 16 * 1024;

/** How main.ts starts the HTTP app (tests boot it the same way). */
export const httpOptions: HttpAppOptions = {
  filter: new IamErrorFilter(),
  // GET /api/iam/openapi.json serves the document generated from this app.
  openapi: OPENAPI_SPEC,
  edge: {
    bodyLimits: [{ paths: ['/oauth/token', '/oauth/revoke', '/oauth/introspect', '/login', '/login/second-factor', '/login/step-up'], bytes: SMALL_BODY_BYTES }],
  },
};
