/**
 * A key ring parsed from env: `kid1:base64key,kid2:base64key`. The current key encrypts new
 * data; every key in the ring still decrypts, so keys rotate by adding a new one in front and
 * dropping an old one only after data has been re-encrypted.
 */
export interface KeyRing {
  currentKid: string;
  keys: Map<string, Buffer>;
}

const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export function parseKeyRing(spec: string, currentKid?: string, keyLength = 32): KeyRing {
  const keys = new Map<string, Buffer>();
  for (const entry of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const sep = entry.indexOf(':');
    if (sep <= 0) throw new Error(`key ring entry must be "kid:base64key", got "${entry.slice(0, 8)}…"`);
    const kid = entry.slice(0, sep);
    if (!KID_PATTERN.test(kid)) throw new Error(`key id "${kid}" must match ${KID_PATTERN}`);
    const key = Buffer.from(entry.slice(sep + 1), 'base64');
    if (key.length < keyLength) throw new Error(`key "${kid}" must decode to at least ${keyLength} bytes, got ${key.length}`);
    if (keys.has(kid)) throw new Error(`key id "${kid}" appears twice`);
    keys.set(kid, key.subarray(0, keyLength));
  }
  if (keys.size === 0) throw new Error('key ring is empty');
  const kid = currentKid ?? keys.keys().next().value!;
  if (!keys.has(kid)) throw new Error(`current key id "${kid}" is not in the key ring`);
  return { currentKid: kid, keys };
}
