import { OAuthError } from './oauth-error';

export interface OAuthForm {
  /** Parameters that appear once. */
  form: Record<string, string | undefined>;
  /** RFC 8707 §2: `resource` may appear several times. */
  resources: string[];
}

/** A token or PAR endpoint body: every parameter once, except `resource`. */
export function readForm(body: unknown): OAuthForm {
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
  return { form, resources };
}
