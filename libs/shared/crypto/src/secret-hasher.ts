import { createHmac, timingSafeEqual } from 'node:crypto';
import { KeyRing } from './keyring';

const VERSION = 'h1';

/**
 * Peppered HMAC-SHA256 for high-entropy secrets the server made itself (client secrets, tokens).
 * Such secrets cannot be guessed, so a slow hash buys nothing and would dominate the token
 * endpoint; the pepper (kept outside the database) makes a leaked table useless on its own.
 * Never use this for passwords: see PasswordHasher.
 */
export class SecretHasher {
  constructor(private readonly peppers: KeyRing) {}

  hash(secret: string): string {
    const kid = this.peppers.currentKid;
    return `${VERSION}.${kid}.${this.digest(kid, secret).toString('base64url')}`;
  }

  /**
   * A stable lookup key for the secret (same input, same output) under the current pepper;
   * lets a token be found by an indexed column without storing it.
   */
  lookupKey(secret: string): string {
    return this.hash(secret);
  }

  verify(secret: string, stored: string): boolean {
    const parts = stored.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return false;
    const [, kid, encoded] = parts;
    if (!this.peppers.keys.has(kid)) return false;
    const expected = Buffer.from(encoded, 'base64url');
    const actual = this.digest(kid, secret);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private digest(kid: string, secret: string): Buffer {
    return createHmac('sha256', this.peppers.keys.get(kid)!).update(secret, 'utf8').digest();
  }
}
