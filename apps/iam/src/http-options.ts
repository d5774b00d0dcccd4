import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { clientDataError, toProblem } from '@platform/observability';
import type { HttpAppOptions } from '@platform/runtime';
import type { Request, Response } from 'express';
import { OAuthErrorFilter } from './app/oauth/oauth-error';
import { OPENAPI_SPEC } from './openapi-spec';

const OAUTH_PREFIX = '/oauth/';

/**
 * The platform's problem+json answer with `instance` naming the path alone: the query string is
 * client input that can carry credentials (`?access_token=…`, a sign-in `code`), and a problem
 * document travels back through proxies, browsers and their logs.
 */
@Catch()
export class IamProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetailsFilter');

  catch(raised: unknown, host: ArgumentsHost): void {
    const exception = clientDataError(raised, this.logger) ?? raised;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const problem = toProblem(exception, req?.originalUrl?.split('?', 1)[0]);
    if (problem.status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (res.headersSent) return;
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }
}

/**
 * Errors raised before routing (the edge layer's refusals, a malformed or oversized body, an
 * unknown path) under /oauth answer RFC 6749's `{error, error_description}` like the OAuth
 * endpoints themselves; the rest of iam answers problem+json.
 */
@Catch()
export class IamErrorFilter implements ExceptionFilter {
  private readonly oauth = new OAuthErrorFilter();
  private readonly problem = new IamProblemFilter();

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
