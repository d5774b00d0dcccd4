import { createHash } from 'node:crypto';

/**
 * A deep copy with every object's keys inserted in sorted order (arrays keep theirs), `toJSON`
 * applied and undefined members dropped, as JSON.stringify would. JavaScript still lists
 * integer-like keys first, in numeric order, so the order is one fixed function of the key set:
 * equal data, however its keys were written, serialises to equal bytes.
 */
export function canonicalize(value: unknown): unknown {
  const plain =
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  if (plain === null || typeof plain !== 'object') return plain;
  if (Array.isArray(plain)) return plain.map(canonicalize);
  const source = plain as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort()) {
    const member = source[key];
    // Defined, not assigned, so a "__proto__" key (an id from the input) stays a key and is hashed.
    if (member !== undefined && typeof member !== 'function' && typeof member !== 'symbol')
      Object.defineProperty(out, key, { value: canonicalize(member), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Canonical JSON text: what gets hashed. Built by the native serialiser over a sorted copy (fast). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value)) ?? 'null';
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
