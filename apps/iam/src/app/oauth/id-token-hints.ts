import { Injectable } from '@nestjs/common';
import { compactVerify, createLocalJWKSet } from 'jose';
import { SigningKeysService } from '../keys/signing-keys.service';
import { TokenIssuer } from './token-issuer.service';

/**
 * Reads `id_token_hint` (OIDC Core §3.1.2.1): an id_token this server issued, whose `sub` names
 * the user the client expects. Its expiry does not matter (the hint is typically an old one), its
 * signature and issuer do; an access token (`typ: at+jwt`) is no hint.
 */
@Injectable()
export class IdTokenHints {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly issuer: TokenIssuer,
  ) {}

  /** The subject the hint names, or undefined when it is not an id_token of ours. */
  async subject(hint: string): Promise<string | undefined> {
    try {
      const { payload, protectedHeader } = await compactVerify(hint, createLocalJWKSet({ keys: await this.keys.publishedKeys() }), { algorithms: ['ES256'] });
      if (protectedHeader.typ !== 'JWT') return undefined;
      const claims = JSON.parse(new TextDecoder().decode(payload)) as { iss?: unknown; sub?: unknown };
      return claims.iss === this.issuer.issuer && typeof claims.sub === 'string' ? claims.sub : undefined;
    } catch {
      return undefined;
    }
  }
}
