import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KeyRing } from './keyring';

const VERSION = 'e1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

export class DecryptionError extends Error {
  constructor(reason: string) {
    super(`cannot decrypt: ${reason}`);
    this.name = 'DecryptionError';
  }
}

/**
 * Envelope encryption with AES-256-GCM: every value gets its own data key, which is wrapped by
 * the key ring's current key. The output names the wrapping key id, so rotating the ring never
 * strands old data. `context` is bound as associated data: a ciphertext copied to another row
 * or purpose (a different context) fails to decrypt.
 */
export class EnvelopeCipher {
  constructor(private readonly ring: KeyRing) {}

  encrypt(plaintext: string | Buffer, context = ''): string {
    const kid = this.ring.currentKid;
    const dataKey = randomBytes(32);
    const aad = Buffer.from(`${VERSION}|${kid}|${context}`);
    const wrapped = seal(this.ring.keys.get(kid)!, dataKey, aad);
    const body = seal(dataKey, Buffer.isBuffer(plaintext) ? plaintext : Buffer.from(plaintext, 'utf8'), aad);
    return `${VERSION}.${kid}.${wrapped.toString('base64url')}.${body.toString('base64url')}`;
  }

  decryptToBuffer(token: string, context = ''): Buffer {
    const parts = token.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new DecryptionError('not an envelope');
    const [, kid, wrapped, body] = parts;
    const key = this.ring.keys.get(kid);
    if (!key) throw new DecryptionError(`unknown key id "${kid}"`);
    const aad = Buffer.from(`${VERSION}|${kid}|${context}`);
    try {
      const dataKey = open(key, Buffer.from(wrapped, 'base64url'), aad);
      return open(dataKey, Buffer.from(body, 'base64url'), aad);
    } catch {
      throw new DecryptionError('authentication failed (wrong key or context, or tampered data)');
    }
  }

  decrypt(token: string, context = ''): string {
    return this.decryptToBuffer(token, context).toString('utf8');
  }

  /** True when the value was wrapped by a key other than the current one (re-encrypt it). */
  needsReencryption(token: string): boolean {
    return token.split('.')[1] !== this.ring.currentKid;
  }
}
