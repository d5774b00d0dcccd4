import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { OAuthError } from './oauth-error';

export interface OAuthForm<T> {
  /** Parameters that appear once, checked by the endpoint's form DTO (unknown ones kept as sent). */
  form: T & Record<string, string | undefined>;
  /** RFC 8707 §2: `resource` may appear several times. */
  resources: string[];
}

/**
 * The parameters of an OAuth endpoint's body: every one once, except `resource` (RFC 6749 §3.1),
 * and every one a string. A repeated parameter, or one the body parser made something else (a
 * bracketed `client_secret[a]=b`, a JSON number), is RFC 6749's invalid_request naming it: no
 * client authentication or lookup ever sees a value of another type than the form can carry.
 */
export function readParameters(body: unknown): OAuthForm<object> {
  if (Array.isArray(body)) throw OAuthError.invalidRequest('the body must be a set of parameters');
  const form: Record<string, string | undefined> = {};
  let resources: string[] = [];
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (k === 'resource') {
      const values = Array.isArray(v) ? v : [v];
      if (!values.every((x): x is string => typeof x === 'string')) throw OAuthError.invalidRequest('resource must be a URI');
      resources = values;
      continue;
    }
    if (Array.isArray(v)) throw OAuthError.invalidRequest(`parameter ${k} is repeated`);
    if (typeof v !== 'string') throw OAuthError.invalidRequest(`parameter ${k} must be a string`);
    form[k] = v;
  }
  return { form, resources };
}

/** The endpoint's form DTO rules over parameters read by readParameters; the first failure is invalid_request. */
export function checkForm<T extends object>(dto: new () => T, read: OAuthForm<object>): OAuthForm<T> {
  const [failure] = validateSync(plainToInstance(dto, read.form), { forbidUnknownValues: false });
  const message = failure && Object.values(failure.constraints ?? {})[0];
  if (message) throw OAuthError.invalidRequest(message);
  return read as OAuthForm<T>;
}

/**
 * Parses an OAuth endpoint's form body through its DTO: readParameters, then the DTO's
 * class-validator rules. A failure is RFC 6749's invalid_request naming the field; the semantic
 * checks (grant type, client, grant, scope) follow in the endpoint.
 */
export function readForm<T extends object>(dto: new () => T, body: unknown): OAuthForm<T> {
  return checkForm(dto, readParameters(body));
}
