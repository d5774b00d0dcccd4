import type { HttpAppOptions } from '@platform/runtime';
import { KbErrorFilter } from './app/errors/kb-errors';
import { LexicalIndexes } from './app/retrieval/lexical-indexes';
import { OPENAPI_SPEC } from './openapi-spec';

/** Unauthenticated credential routes: an email, a password and a device name fit in far less. */
const SMALL_BODY_BYTES = 16 * 1024;

/** How main.ts starts the HTTP app (tests boot it the same way). */
export const httpOptions: HttpAppOptions = {
  // The knowledge base answers `{message}`, `{message, errors}` or `{error, message}` (reference kb §2.1).
  filter: new KbErrorFilter(),
  // Every other route (ingest batches of up to 100 documents above all) takes KB_MAX_BODY_BYTES.
  bodyLimitEnv: 'KB_MAX_BODY_BYTES',
  // Served at /api/kb/openapi.json, generated from this app's own controllers and DTOs.
  openapi: OPENAPI_SPEC,
  // The large tenants' in-memory lexical indexes load in the background from the start (lexical-indexes.ts).
  configure: (app) => {
    void app.get(LexicalIndexes, { strict: false }).prewarm();
  },
  edge: {
    bodyLimits: [{ paths: ['/api/auth/login', '/api/auth/token', '/api/auth/forgot-password', '/api/auth/reset-password'], bytes: SMALL_BODY_BYTES }],
  },
};
