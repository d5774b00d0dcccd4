import type { HttpAppOptions } from '@platform/runtime';
import { EvidenceErrorFilter } from './app/reviews/evidence-error.filter';
import { OPENAPI_SPEC } from './openapi-spec';

/** How main.ts starts the HTTP app (tests boot it the same way). */
export const httpOptions: HttpAppOptions = {
  // This area answers errors as { error: { code, message, details } } (spec area D), the body
  // limit's 413 included.
  filter: new EvidenceErrorFilter(),
  bodyLimitEnv: 'EVIDENCE_MAX_BODY_BYTES',
  // Every route is authenticated and takes the same limit; requests Node's parser refuses answer
  // in the area's shape too.
  edge: { clientErrorBody: (_status, code, message) => ({ error: { code, message, details: [] } }) },
  // GET /evidence-risk-review/openapi.json serves the document generated from this app.
  openapi: OPENAPI_SPEC,
};
