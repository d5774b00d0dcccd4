import { CanActivate, Type } from '@nestjs/common';
import { JwtAuthGuard } from '@platform/auth';

/**
 * The host middleware named by `api.middleware`. The API has no authentication of its own; these
 * are the guards a deployment can list (comma-separated, applied in order).
 */
const KNOWN_MIDDLEWARE: Record<string, Type<CanActivate>> = {
  // An iam access token verified offline; the controller demands the guardrails:admin scope.
  jwt: JwtAuthGuard,
};

/** Resolves the list at module build time; with the API enabled, an empty or unknown list stops the boot. */
export function resolveApiMiddleware(raw: string, enabled: boolean): Type<CanActivate>[] {
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (!enabled) return [];
  if (names.length === 0) {
    throw new Error('the guardrails API is enabled (GUARDRAILS_API_ENABLED) but its middleware list (GUARDRAILS_API_MIDDLEWARE) is empty');
  }
  const unknown = names.filter((n) => !(n in KNOWN_MIDDLEWARE));
  if (unknown.length) {
    throw new Error(`GUARDRAILS_API_MIDDLEWARE names unknown middleware: ${unknown.join(', ')} (known: ${Object.keys(KNOWN_MIDDLEWARE).join(', ')})`);
  }
  return names.map((n) => KNOWN_MIDDLEWARE[n]);
}
