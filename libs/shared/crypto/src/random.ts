import { randomBytes, randomInt, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random secret with a readable prefix (`kbp_…`, `gcs_…`): the prefix tells a reader and a
 * secret scanner what leaked. Characters are drawn uniformly from base62 (randomInt avoids the
 * modulo bias a byte-to-character mapping would have), enough of them for `bits` of entropy.
 */
export function generateToken(prefix: string, bits = 256): string {
  if (!/^[a-z][a-z0-9]{1,15}$/.test(prefix)) {
    throw new Error(`token prefix "${prefix}" must be 2-16 lowercase alphanumerics`);
  }
  const length = Math.ceil(bits / Math.log2(62));
  let body = '';
  for (let i = 0; i < length; i++) body += BASE62[randomInt(62)];
  return `${prefix}_${body}`;
}

/** URL-safe random string for nonces, codes and ids that are not long-lived secrets. */
export function randomString(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function randomId(): string {
  return randomUUID();
}
