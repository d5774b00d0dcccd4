import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, CryptoKey, exportJWK, generateKeyPair, JWK, SignJWT } from 'jose';

export interface ProofOptions {
  method: string;
  url: string;
  /** The access token the proof goes with (sets `ath`). */
  accessToken?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  jti?: string;
  nonce?: string;
}

/** A client's DPoP key (RFC 9449), as a client would hold it: signs proofs, names its thumbprint. */
export class TestDpopKey {
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
    /** RFC 7638 thumbprint: the `cnf.jkt` a token bound to this key carries. */
    readonly jkt: string,
  ) {}

  static async generate(): Promise<TestDpopKey> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    return new TestDpopKey(privateKey, jwk, await calculateJwkThumbprint(jwk, 'sha256'));
  }

  /** `cnf` claim binding a token to this key. */
  get cnf(): { jkt: string } {
    return { jkt: this.jkt };
  }

  async proof(o: ProofOptions): Promise<string> {
    const claims: Record<string, unknown> = { htm: o.method.toUpperCase(), htu: o.url, jti: o.jti ?? randomUUID(), iat: o.iat ?? Math.floor(Date.now() / 1000) };
    if (o.accessToken !== undefined) claims['ath'] = createHash('sha256').update(o.accessToken, 'ascii').digest('base64url');
    if (o.nonce !== undefined) claims['nonce'] = o.nonce;
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: this.publicJwk }).sign(this.privateKey);
  }
}
