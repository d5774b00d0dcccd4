import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { ProblemDetailsFilter } from '@platform/observability';
import type { HttpAppOptions } from '@platform/runtime';
import type { Request } from 'express';
import { envelope, GuardrailsEnvelopeFilter } from './app/api/envelope';
import { GuardrailsAdminConfig } from './config/guardrails-admin-config';
import { OPENAPI_SPEC } from './openapi-spec';

/**
 * Errors raised before routing (a malformed or oversized JSON body, an unknown path) under the API
 * prefix are enveloped like the API's own answers; the rest of the app answers problem+json.
 */
@Catch()
export class GuardrailsAdminErrorFilter implements ExceptionFilter {
  private readonly api = new GuardrailsEnvelopeFilter();
  private readonly problem = new ProblemDetailsFilter();
  private prefix?: string;

  catch(exception: unknown, host: ArgumentsHost): void {
    // Read on first use: the filter is built when this file loads, before the app validates its env.
    this.prefix ??= `/${GuardrailsAdminConfig.load().api.prefix}/`;
    const path = host.switchToHttp().getRequest<Request>().path ?? '';
    (path.startsWith(this.prefix) ? this.api : this.problem).catch(exception, host);
  }
}

/** How main.ts starts the HTTP app (tests boot it the same way). */
export const httpOptions: HttpAppOptions = {
  filter: new GuardrailsAdminErrorFilter(),
  bodyLimitEnv: 'GUARDRAILS_MAX_BODY_BYTES',
  // Every route is authenticated and takes the same limit; requests Node's parser refuses (their
  // path unknown) answer in the API's error envelope, where nearly all traffic goes.
  edge: { clientErrorBody: (_status, code, message) => envelope('error', { error: code, message }) },
  // GET <api.prefix>/openapi.json serves the document generated from this app.
  openapi: OPENAPI_SPEC,
};
