import { createHash, randomBytes } from 'node:crypto';

/**
 * Single-use approval tokens: 32 random bytes as base64url (43 characters). Only the SHA-256 hash
 * is stored; the plain token goes to the approver, never to the model.
 */
export function generateApprovalToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashApprovalToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The shape a token in a URL must have before it is even looked up. */
export function isWellFormedApprovalToken(token: string): boolean {
  return /^[A-Za-z0-9_.-]{1,200}$/.test(token);
}
