import { toWellFormedText } from '../shared/text';

/** ES2024 string methods (Node 20+), not yet in the compiler's library settings. */
interface WellFormedMethods {
  isWellFormed?(): boolean;
  toWellFormed?(): string;
}

/**
 * `toWellFormedText` through the engine's own check when it has one: a prompt is screened on every
 * request and nearly always well-formed, and the built-in check is a plain scan where the regex
 * fallback needs a lookbehind at every surrogate.
 */
export function wellFormed(s: string): string {
  const methods = s as unknown as WellFormedMethods;
  if (typeof methods.isWellFormed !== 'function' || typeof methods.toWellFormed !== 'function') return toWellFormedText(s);
  return methods.isWellFormed() ? s : methods.toWellFormed();
}
