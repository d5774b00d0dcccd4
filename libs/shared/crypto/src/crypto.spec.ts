import { randomBytes } from 'node:crypto';
import { DecryptionError, EnvelopeCipher } from './envelope';
import { parseKeyRing } from './keyring';
import { PasswordHasher } from './password-hasher';
import { generateToken, randomString } from './random';
import { SecretHasher } from './secret-hasher';

const key = () => randomBytes(32).toString('base64');

describe('parseKeyRing', () => {
  it('takes the first key as current unless told otherwise', () => {
    const ring = parseKeyRing(`a:${key()},b:${key()}`);
    expect(ring.currentKid).toBe('a');
    expect(parseKeyRing(`a:${key()},b:${key()}`, 'b').currentKid).toBe('b');
  });

  it.each([
    ['', /empty/],
    ['nokey', /kid:base64key/],
    [`a:${Buffer.alloc(8).toString('base64')}`, /at least 32 bytes/],
    [`a:${key()},a:${key()}`, /twice/],
    [`bad kid:${key()}`, /must match/],
  ])('refuses %j', (spec, message) => {
    expect(() => parseKeyRing(spec)).toThrow(message);
  });

  it('refuses a current key id that is not in the ring', () => {
    expect(() => parseKeyRing(`a:${key()}`, 'z')).toThrow(/not in the key ring/);
  });
});

describe('EnvelopeCipher', () => {
  const k1 = key();
  const k2 = key();

  it('round-trips and never repeats a ciphertext', () => {
    const cipher = new EnvelopeCipher(parseKeyRing(`k1:${k1}`));
    const a = cipher.encrypt('refresh-token-payload', 'row:1');
    const b = cipher.encrypt('refresh-token-payload', 'row:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('refresh-token-payload');
    expect(cipher.decrypt(a, 'row:1')).toBe('refresh-token-payload');
  });

  it('keeps decrypting old data after the ring rotates, and encrypts new data with the new key', () => {
    const before = new EnvelopeCipher(parseKeyRing(`k1:${k1}`));
    const old = before.encrypt('secret');
    const after = new EnvelopeCipher(parseKeyRing(`k2:${k2},k1:${k1}`));
    expect(after.decrypt(old)).toBe('secret');
    expect(after.needsReencryption(old)).toBe(true);
    const fresh = after.encrypt('secret');
    expect(fresh.split('.')[1]).toBe('k2');
    expect(after.needsReencryption(fresh)).toBe(false);
  });

  it('refuses another context, a tampered body and an unknown key id', () => {
    const cipher = new EnvelopeCipher(parseKeyRing(`k1:${k1}`));
    const sealed = cipher.encrypt('x', 'client:a');
    expect(() => cipher.decrypt(sealed, 'client:b')).toThrow(DecryptionError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[body.length - 1] ^= 1;
    expect(() => cipher.decrypt([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'client:a')).toThrow(
      DecryptionError,
    );
    expect(() => new EnvelopeCipher(parseKeyRing(`k2:${k2}`)).decrypt(sealed, 'client:a')).toThrow(/unknown key id/);
    expect(() => cipher.decrypt('garbage')).toThrow(/not an envelope/);
  });
});

describe('SecretHasher', () => {
  const hasher = new SecretHasher(parseKeyRing(`p1:${key()}`));

  it('verifies the right secret only', () => {
    const stored = hasher.hash('s3cret');
    expect(stored).not.toContain('s3cret');
    expect(hasher.verify('s3cret', stored)).toBe(true);
    expect(hasher.verify('s3cret ', stored)).toBe(false);
    expect(hasher.verify('s3cret', 'h1.p1.short')).toBe(false);
    expect(hasher.verify('s3cret', 'nonsense')).toBe(false);
  });

  it('is deterministic, so it can serve as an indexed lookup key', () => {
    expect(hasher.lookupKey('abc')).toBe(hasher.lookupKey('abc'));
  });

  it('keeps verifying hashes made with an older pepper', () => {
    const p1 = key();
    const old = new SecretHasher(parseKeyRing(`p1:${p1}`)).hash('x');
    const rotated = new SecretHasher(parseKeyRing(`p2:${key()},p1:${p1}`));
    expect(rotated.verify('x', old)).toBe(true);
  });
});

describe('PasswordHasher', () => {
  it('hashes with argon2id and verifies', async () => {
    const hasher = new PasswordHasher({ memoryCost: 4096, timeCost: 1 });
    const stored = await hasher.hash('correct horse');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    await expect(hasher.verify('correct horse', stored)).resolves.toBe(true);
    await expect(hasher.verify('wrong', stored)).resolves.toBe(false);
    await expect(hasher.verify('x', 'not-a-hash')).resolves.toBe(false);
  });
});

describe('random', () => {
  it('makes prefixed base62 tokens with at least the asked entropy', () => {
    const t = generateToken('kbp');
    expect(t).toMatch(/^kbp_[0-9A-Za-z]{43}$/);
    expect(generateToken('kbp')).not.toBe(t);
    expect(() => generateToken('Bad_')).toThrow();
    expect(randomString(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
