import { createHash, randomBytes } from 'node:crypto';

/** A single-use approval token: 256 random bits, handed out once; only its hash is stored. */
export function newApprovalToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashApprovalToken(token) };
}

/** A plain digest is enough: the token is random and long, so it cannot be guessed from its hash. */
export function hashApprovalToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
