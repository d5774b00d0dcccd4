/** Binds a token's ciphertext to its tenant and id, so a ciphertext copied to another row does not open. */
export const tokenContext = (tenantId: string, tokenId: string) =>
  `kb_pii_tokens:${tenantId}:${tokenId}`;
