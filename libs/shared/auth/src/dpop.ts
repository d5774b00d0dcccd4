import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, CryptoKey, importJWK, JWK, JWTHeaderParameters, jwtVerify } from 'jose';

/**
 * DPoP (RFC 9449) proof checks shared by the authorization server (iam's token and PAR endpoints)
 * and the resource servers: pure verification here, replay memory through a Redis-like store the
 * caller passes, so both sides refuse the same proofs for the same reasons.
 */

/** Asymmetric algorithms accepted for proofs; `none` and MAC algorithms can never prove possession. */
export const DPOP_SIGNING_ALGS: readonly string[] = ['ES256', 'ES384', 'ES512', 'EdDSA', 'PS256', 'RS256'];

/** How far back a proof's `iat` may lie; also how long its `jti` must be remembered. */
export const DPOP_DEFAULT_MAX_AGE_SEC = 60;
/** Tolerated clock skew for an `iat` in the future. */
export const DPOP_DEFAULT_CLOCK_SKEW_SEC = 5;

export interface DpopRequest {
  /** The HTTP method of the request the proof travels with (htm). */
  method: string;
  /** The absolute URL the client addressed (htu); query and fragment are ignored on both sides. */
  url: string;
  /** Present at a resource server: the proof must carry `ath`, the hash of this token. */
  accessToken?: string;
  /** Current time in seconds (an injectable clock, so tests move time instead of sleeping). */
  now: number;
  maxAgeSec?: number;
  clockSkewSec?: number;
  algorithms?: readonly string[];
}

export interface DpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's public key: what `cnf.jkt` names. */
  jkt: string;
  jti: string;
  iat: number;
  /** The server-issued nonce the proof carries, if any; checking it is the caller's (its nonce scheme). */
  nonce?: string;
}

/** A proof that cannot be accepted; RFC 9449 names the error `invalid_dpop_proof`. */
export class DpopProofError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DpopProofError';
  }
}

/**
 * Public keys already imported, with their thumbprints: a client signs every proof with the same
 * key, so importing it and hashing it once saves most of a proof check's work. Bounded, oldest
 * first out; an entry is a pure function of the JWK, so it can never go stale.
 */
const KEY_CACHE_SIZE = 1000;
const keyCache = new Map<string, { key: CryptoKey; jkt: string }>();

async function proofKey(jwk: JWK, alg: string): Promise<{ key: CryptoKey; jkt: string }> {
  const id = `${alg}|${jwk.kty}|${jwk.crv}|${jwk.x}|${jwk.y}|${jwk.n}|${jwk.e}`;
  const cached = keyCache.get(id);
  if (cached) return cached;
  const key = (await importJWK({ ...jwk, ext: true }, alg)) as CryptoKey;
  if (key.type !== 'public') throw new DpopProofError('DPoP proof jwk must be a public key');
  const entry = { key, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value!);
  keyCache.set(id, entry);
  return entry;
}

/** Minimal Redis surface for the replay memory (ioredis' `set … PX ms NX`). */
export interface DpopReplayStore {
  set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<'OK' | null>;
}

/** base64url SHA-256 of an access token: the `ath` claim (RFC 9449 §4.2). */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

/** htu as compared: scheme and host normalised by URL parsing, default port dropped, no query or fragment. */
export function normalizeHtu(url: string): string | undefined {
  try {
    const u = new URL(url);
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return undefined;
  }
}

/**
 * The single `DPoP` header of a request, or undefined when there is none. Several proofs (a
 * repeated header, or values joined by a comma) are an error: RFC 9449 §4.3 allows exactly one.
 */
export function dpopHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new DpopProofError('exactly one DPoP header is allowed');
    value = value[0];
  }
  if (value.includes(',')) throw new DpopProofError('exactly one DPoP proof is allowed');
  if (value.trim() === '') throw new DpopProofError('the DPoP header is empty');
  return value.trim();
}

/**
 * RFC 9449 §4.3 checks: a compact JWS with `typ: dpop+jwt`, an asymmetric `alg`, a public `jwk`
 * (never a private key) whose signature verifies, `jti`, `htm` and `htu` matching the request,
 * `iat` within the window, and `ath` when an access token is presented. Replay (the `jti`) and the
 * nonce are checked by the caller, after this.
 */
export async function verifyDpopProof(proof: string, req: DpopRequest): Promise<DpopProof> {
  const algorithms = [...(req.algorithms ?? DPOP_SIGNING_ALGS)];
  let jkt = '';
  const embedded = async (header: JWTHeaderParameters) => {
    const jwk = header.jwk;
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk || 'p' in jwk || 'k' in jwk) throw new DpopProofError('DPoP proof jwk must be a public key');
    const found = await proofKey(jwk, header.alg);
    jkt = found.jkt;
    return found.key;
  };
  let verified;
  try {
    verified = await jwtVerify(proof, embedded, { typ: 'dpop+jwt', algorithms });
  } catch (e) {
    if (e instanceof DpopProofError) throw e;
    throw new DpopProofError(`DPoP proof rejected: ${(e as Error).message}`);
  }
  const { payload } = verified;
  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) {
    throw new DpopProofError('DPoP proof jti is missing or too long');
  }
  if (payload['htm'] !== req.method.toUpperCase()) throw new DpopProofError('DPoP proof htm does not match the request method');
  const htu = typeof payload['htu'] === 'string' ? normalizeHtu(payload['htu']) : undefined;
  if (!htu || htu !== normalizeHtu(req.url)) throw new DpopProofError('DPoP proof htu does not match the request URL');
  if (typeof payload.iat !== 'number') throw new DpopProofError('DPoP proof iat is missing');
  const maxAge = req.maxAgeSec ?? DPOP_DEFAULT_MAX_AGE_SEC;
  const skew = req.clockSkewSec ?? DPOP_DEFAULT_CLOCK_SKEW_SEC;
  if (payload.iat < req.now - maxAge || payload.iat > req.now + skew) throw new DpopProofError('DPoP proof iat is outside the acceptable window');
  if (req.accessToken !== undefined) {
    if (payload['ath'] !== accessTokenHash(req.accessToken)) throw new DpopProofError('DPoP proof ath does not match the access token');
  }
  const nonce = payload['nonce'];
  if (nonce !== undefined && typeof nonce !== 'string') throw new DpopProofError('DPoP proof nonce must be a string');
  return { jkt, jti: payload.jti, iat: payload.iat, nonce };
}

/**
 * Remembers a proof's `jti` (per key) for as long as its `iat` could still be accepted; false when
 * it was seen before, i.e. the proof is a replay. Shared through Redis, so every replica refuses it.
 */
export async function claimDpopProof(store: DpopReplayStore, keyPrefix: string, proof: DpopProof, maxAgeSec = DPOP_DEFAULT_MAX_AGE_SEC, clockSkewSec = DPOP_DEFAULT_CLOCK_SKEW_SEC): Promise<boolean> {
  const key = `${keyPrefix}${createHash('sha256').update(`${proof.jkt}|${proof.jti}`).digest('base64url')}`;
  const first = await store.set(key, '1', 'PX', (maxAgeSec + 2 * clockSkewSec) * 1000, 'NX');
  return first === 'OK';
}
