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
 * Parses an OAuth endpoint's form body through its DTO: every parameter once, except `resource`
 * (RFC 6749 §3.1), then the DTO's class-validator rules. A failure is RFC 6749's invalid_request
 * naming the field; the semantic checks (grant type, client, grant, scope) follow in the endpoint.
 */
export function readForm<T extends object>(dto: new () => T, body: unknown): OAuthForm<T> {
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
    form[k] = typeof v === 'string' ? v : undefined;
  }
  const [failure] = validateSync(plainToInstance(dto, form), { forbidUnknownValues: false });
  const message = failure && Object.values(failure.constraints ?? {})[0];
  if (message) throw OAuthError.invalidRequest(message);
  return { form: form as T & Record<string, string | undefined>, resources };
}
