import type { HttpAppOptions } from '@platform/runtime';
import { KbErrorFilter } from './app/errors/kb-errors';

/** How main.ts starts the HTTP app (tests boot it the same way). */
export const httpOptions: HttpAppOptions = {
  // The knowledge base answers `{message}`, `{message, errors}` or `{error, message}` (reference kb §2.1).
  filter: new KbErrorFilter(),
  bodyLimitEnv: 'KB_MAX_BODY_BYTES',
};
