import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { PubSubInvalidatedCache } from '@platform/queue';
import type Redis from 'ioredis';
import { KbConfig } from '../../config/kb-config';

/**
 * How long another replica may keep serving what it resolved for a personal access token after a
 * change made elsewhere, if the invalidation message never reaches it (docs/benchmarks.md,
 * "Knowledge base: authenticated request").
 */
export const TOKEN_IDENTITY_TTL_MS = 5000;

/** What a load returns: the value, whose user it describes, and when it must stop being used. */
export interface Loaded<T> {
  value: T;
  userId: string;
  /** Epoch ms after which the value is invalid whatever the TTL (the token's own expiry). */
  validUntil?: number;
}

/**
 * What personal-access-token requests resolve (token row, user, authorization, the user's profile
 * for /api/auth/me), kept in process for a few seconds so a hot token costs no database round trip,
 * through the platform's pub/sub-invalidated cache (@platform/queue).
 *
 * Entries are tagged with their user. Whatever changes a user's tokens, account, roles,
 * memberships or second factor calls `invalidateUser` after the change is committed and before it
 * is acknowledged; the change of a role's permissions calls `invalidateEveryone`. Other replicas
 * follow over Redis pub/sub, and every entry expires after TOKEN_IDENTITY_TTL_MS regardless (or at
 * the token's own expiry if that comes first). Misses are not cached.
 */
@Injectable()
export class TokenIdentityCache implements OnApplicationShutdown {
  private readonly cache: PubSubInvalidatedCache<unknown>;

  constructor(config: KbConfig, @Optional() @Inject(REDIS_CLIENT) redis?: Redis) {
    const prefix = config.get('REDIS_PREFIX');
    this.cache = new PubSubInvalidatedCache(redis, {
      name: 'TokenIdentityCache',
      channel: `${prefix ? `${prefix}:` : ''}kb:token-identity-changed`,
      ttlMs: TOKEN_IDENTITY_TTL_MS,
    });
  }

  get channel(): string {
    return this.cache.channel;
  }

  async get<T>(key: string, load: () => Promise<Loaded<T> | null>): Promise<T | null> {
    const value = await this.cache.get(key, async () => {
      const loaded = await load();
      return loaded ? { value: loaded.value, tag: loaded.userId, validUntil: loaded.validUntil } : null;
    });
    return value as T | null;
  }

  /** Call after a change to the user's tokens, account, roles or memberships is committed. */
  invalidateUser(userId: string | number): Promise<void> {
    return this.cache.invalidate(String(userId));
  }

  /** Call after a change that may affect any user (a role's permissions) is committed. */
  invalidateEveryone(): Promise<void> {
    return this.cache.invalidateAll();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }
}
