import { createPrivateKey, KeyObject, randomBytes } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EnvelopeCipher } from '@platform/crypto';
import { exportJWK, exportPKCS8, generateKeyPair, importPKCS8, JWK, CryptoKey } from 'jose';
import { Clock } from '@platform/runtime';
import { SigningKey } from './signing-key.entity';
import { SigningKeysInRotation, SigningKeysRepository } from './signing-keys.repository';
import { IamConfig } from '../../config/iam-config';

export interface ActiveSigner {
  kid: string;
  /** For jose (id_tokens). */
  privateKey: CryptoKey;
  /** The same key for node:crypto's synchronous signing on the token endpoint's hot path. */
  keyObject: KeyObject;
}

export type RotationOutcome = 'initialised' | 'next_published' | 'rotated' | 'not_due' | 'waiting_for_propagation';

export interface RotationResult {
  outcome: RotationOutcome;
  active: string;
  next: string;
  retired: string[];
}

/** How long a loaded signer is reused before re-reading the store (so replicas follow a rotation). */
const SIGNER_CACHE_MS = 5000;
/** Past this age a cached signer is no longer used while its reload runs: the caller waits for the store. */
const SIGNER_STALE_MS = 60_000;
/** Extra time a retiring key stays published beyond the longest token lifetime (clock skew). */
const RETIRE_LEEWAY_MS = 60_000;

@Injectable()
export class SigningKeysService implements OnApplicationBootstrap {
  private readonly logger = new Logger('SigningKeys');
  private cached?: { signer: ActiveSigner; loadedAt: number };
  private signerLoad?: Promise<ActiveSigner>;
  private generation = 0;
  private jwksCache?: { keys: JWK[]; loadedAt: number };

  constructor(
    private readonly store: SigningKeysRepository,
    private readonly cipher: EnvelopeCipher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.rotate({ onlyInitialise: true });
  }

  /** The key that signs now; cached briefly. */
  async signer(): Promise<ActiveSigner> {
    const cached = this.cached;
    const age = cached ? this.clock.nowMs() - cached.loadedAt : Infinity;
    if (cached && age < SIGNER_CACHE_MS) return cached.signer;
    // One load at a time; meanwhile a recently loaded signer keeps signing (its key stays
    // published through any rotation), so a reload never stalls the token endpoint.
    const loading = this.signerLoad ?? this.startSignerLoad();
    if (cached && age < SIGNER_STALE_MS) {
      loading.catch((e: unknown) => this.logger.warn(`signing key reload failed: ${(e as Error).message}`));
      return cached.signer;
    }
    return loading;
  }

  private startSignerLoad(): Promise<ActiveSigner> {
    const load = this.loadSigner().finally(() => {
      // A rotation may have replaced this load with a newer one meanwhile; leave that one be.
      if (this.signerLoad === load) this.signerLoad = undefined;
    });
    this.signerLoad = load;
    return load;
  }

  private async loadSigner(): Promise<ActiveSigner> {
    const loadedAt = this.clock.nowMs();
    const generation = this.generation;
    let active = await this.store.findActive();
    if (!active) {
      await this.rotate({ onlyInitialise: true });
      active = await this.store.findActive();
      if (!active) throw new Error('no active signing key after initialising the key store');
    }
    const pem = this.cipher.decrypt(active.privateKeyEncrypted, `signing-key:${active.kid}`);
    const signer = { kid: active.kid, privateKey: await importPKCS8(pem, 'ES256'), keyObject: createPrivateKey(pem) };
    // A rotation here during the load makes what was read stale; the next call reads again.
    if (generation === this.generation) this.cached = { signer, loadedAt };
    return signer;
  }

  /** Public keys of every next, active and retiring key: what verifiers must be able to use. */
  async publishedKeys(): Promise<JWK[]> {
    const now = this.clock.nowMs();
    if (this.jwksCache && now - this.jwksCache.loadedAt < SIGNER_CACHE_MS) return this.jwksCache.keys;
    const rows = await this.store.findPublished();
    const keys = rows.map((r) => r.publicJwk);
    this.jwksCache = { keys, loadedAt: now };
    return keys;
  }

  /**
   * One rotation step, safe to run concurrently from any replica, the CLI or the worker:
   * retires keys whose tokens have all expired; makes sure an active and a next key exist; and,
   * when due (or forced), promotes next → active and active → retiring. A next key is promoted only
   * after it has been published for a full JWKS cache lifetime, so no verifier meets an unknown kid.
   */
  async rotate(options: { force?: boolean; onlyInitialise?: boolean } = {}): Promise<RotationResult> {
    const result = await this.store.inRotation(async (keys) => {
      const now = this.clock.now();

      const retiring = await keys.retiring();
      const retired = retiring.filter((k) => k.retireAfter && k.retireAfter <= now).map((k) => k.kid);
      await keys.retire(retired, now);

      let active = await keys.inState('active');
      let next = await keys.inState('next');
      if (!active) {
        active = await this.createKey(keys, 'active', now);
        next = next ?? (await this.createKey(keys, 'next', now));
        return { outcome: 'initialised' as const, active: active.kid, next: next.kid, retired };
      }
      if (!next) {
        next = await this.createKey(keys, 'next', now);
        return { outcome: 'next_published' as const, active: active.kid, next: next.kid, retired };
      }
      if (options.onlyInitialise) return { outcome: 'not_due' as const, active: active.kid, next: next.kid, retired };

      const maxAgeMs = this.config.get('IAM_SIGNING_KEY_MAX_AGE_DAYS') * 86_400_000;
      const due = options.force || now.getTime() - (active.activatedAt ?? active.createdAt).getTime() >= maxAgeMs;
      if (!due) return { outcome: 'not_due' as const, active: active.kid, next: next.kid, retired };

      const propagationMs = this.config.get('IAM_JWKS_MAX_AGE_SEC') * 1000;
      if (now.getTime() - next.publishedAt.getTime() < propagationMs) {
        return { outcome: 'waiting_for_propagation' as const, active: active.kid, next: next.kid, retired };
      }
      const tokenTtlMs = this.config.get('IAM_ACCESS_TOKEN_TTL_SEC') * 1000;
      await keys.startRetiring(active.kid, now, new Date(now.getTime() + tokenTtlMs + RETIRE_LEEWAY_MS));
      await keys.activate(next.kid, now);
      const newNext = await this.createKey(keys, 'next', now);
      return { outcome: 'rotated' as const, active: next.kid, next: newNext.kid, retired };
    });
    if (result.outcome !== 'not_due') this.logger.log(`signing keys: ${result.outcome} (active ${result.active}, next ${result.next})`);
    this.generation++;
    this.cached = undefined;
    this.signerLoad = undefined;
    this.jwksCache = undefined;
    return result;
  }

  private async createKey(keys: SigningKeysInRotation, state: 'active' | 'next', now: Date): Promise<SigningKey> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = `sk_${randomBytes(8).toString('hex')}`;
    const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] };
    return keys.insert({
      kid,
      state,
      publicJwk,
      privateKeyEncrypted: this.cipher.encrypt(await exportPKCS8(privateKey), `signing-key:${kid}`),
      createdAt: now,
      publishedAt: now,
      activatedAt: state === 'active' ? now : null,
      retiringAt: null,
      retireAfter: null,
      retiredAt: null,
    });
  }
}
