import { JsonSchema } from '../shared/json-schema';
import { PrincipalId } from './tool-definition';

export interface OwnerScoping {
  arguments: Record<string, unknown>;
  /** Owner keys that could not be scoped (no authenticated caller), by argument path. */
  violations: Record<string, string>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

const numericPrincipal = (p: string | number) => (typeof p === 'number' ? p : /^-?\d{1,15}$/.test(p) ? Number(p) : null);

/** Integer- or number-typed owner keys get a numeric principal when it is numeric. */
function principalFor(principal: string | number, wantsNumber: boolean): string | number {
  const n = numericPrincipal(principal);
  return wantsNumber && n !== null ? n : String(principal);
}

const schemaWantsNumber = (schema: JsonSchema | undefined) => {
  const type = schema?.['type'];
  const types = Array.isArray(type) ? type : [type];
  return (types.includes('integer') || types.includes('number')) && !types.includes('string');
};

const MAX_DEPTH = 32;

/** Assignment that also works for a key such as "__proto__" (arguments are untrusted JSON). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Overwrites owner keys with the caller's identity so a model cannot act for someone else. Top
 * level: every owner key the tool declares is set (injected if the model left it out), and an
 * undeclared one that is present (when the firewall lets it through) is overwritten too. Recursive
 * depth also overwrites owner keys already present in nested objects and arrays (never injects
 * them). With no authenticated caller, any owner key in play is a violation instead.
 */
export function scopeOwnerKeys(
  args: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  ownerKeys: readonly string[],
  principal: PrincipalId,
  depth: 'top_level' | 'recursive',
): OwnerScoping {
  const violations: Record<string, string> = {};
  const owners = new Set(ownerKeys);
  const refuse = (path: string) => {
    violations[path] = `Owner argument [${path}] requires an authenticated caller.`;
  };
  const scoped: Record<string, unknown> = { ...args };
  for (const key of ownerKeys) {
    const declared = Object.prototype.hasOwnProperty.call(properties, key);
    const present = Object.prototype.hasOwnProperty.call(scoped, key);
    if (!declared && !present) continue;
    if (principal === null) refuse(key);
    else {
      const wantsNumber = declared ? schemaWantsNumber(properties[key]) : typeof scoped[key] === 'number';
      setOwn(scoped, key, principalFor(principal, wantsNumber));
    }
  }
  if (depth === 'recursive') {
    const walk = (value: unknown, path: string, level: number): unknown => {
      if (level > MAX_DEPTH) return value;
      if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}.${i}`, level + 1));
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const at = `${path}.${k}`;
        if (owners.has(k)) {
          if (principal === null) refuse(at);
          setOwn(out, k, principal === null ? v : principalFor(principal, typeof v === 'number'));
        } else {
          setOwn(out, k, walk(v, at, level + 1));
        }
      }
      return out;
    };
    for (const [k, v] of Object.entries(scoped)) {
      if (!owners.has(k)) setOwn(scoped, k, walk(v, k, 1));
    }
  }
  return { arguments: scoped, violations };
}
