import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';

/**
 * How long another replica may keep serving what it resolved for a personal access token after a
 * change made elsewhere, if the invalidation message never reaches it (docs/benchmarks.md,
 * "Knowledge base: authenticated request").
 */
export const TOKEN_IDENTITY_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;
/** The message that drops every entry (a role's permissions changed: any user may be affected). */
const EVERYONE = '*';

interface Entry {
  value: unknown;
  userId: string;
  expiresAt: number;
}

/** What a load returns: the value, whose user it describes, and when it must stop being used. */
export interface Loaded<T> {
  value: T;
  userId: string;
  /** Epoch ms after which the value is invalid whatever the TTL (the token's own expiry). */
  validUntil?: number;
}

/**
 * What personal-access-token requests resolve (token row, user, authorization, the user's profile
 * for /api/auth/me), kept in process for a few seconds so a hot token costs no database round trip.
 *
 * - Entries are tagged with their user. Whatever changes a user's tokens, account, roles,
 *   memberships or second factor calls `invalidateUser` after the change is committed and before
 *   it is acknowledged; the change of a role's permissions calls `invalidateEveryone`. The process
 *   that made the change drops the entries at once, and a load that was in flight when any change
 *   landed is never stored (generation check), so it cannot put the old state back.
 * - Other replicas drop the entries when the change arrives over Redis pub/sub. The cache serves
 *   only while its subscription is live (it starts empty after every (re)subscription), and every
 *   entry expires after TOKEN_IDENTITY_TTL_MS regardless, which bounds staleness when a message is
 *   lost, and at the token's own expiry if that comes first.
 * - Without a Redis client nothing could tell this process about changes elsewhere: no caching.
 */
@Injectable()
export class TokenIdentityCache implements OnApplicationShutdown {
  private readonly logger = new Logger('TokenIdentityCache');
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private subscriber?: Redis;
  private live = false;
  readonly channel: string;

  constructor(
    config: ConfigService,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: Redis,
  ) {
    const prefix = config.get<string>('REDIS_PREFIX');
    this.channel = `${prefix ? `${prefix}:` : ''}kb:token-identity-changed`;
  }

  async get<T>(key: string, load: () => Promise<Loaded<T> | null>): Promise<T | null> {
    if (!this.redis) return (await load())?.value ?? null;
    if (!this.subscriber) this.subscribe(this.redis);
    if (!this.live) return (await load())?.value ?? null;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expiresAt > now) return hit.value as T;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const loaded = await load();
    // Misses are not cached: a token issued a moment later must work at once.
    if (!loaded) return null;
    const expiresAt = Math.min(now + TOKEN_IDENTITY_TTL_MS, loaded.validUntil ?? Infinity);
    if (this.live && generation === this.generation && expiresAt > Date.now()) {
      if (this.entries.size >= MAX_ENTRIES)
        this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value: loaded.value, userId: loaded.userId, expiresAt });
    }
    return loaded.value;
  }

  /** Call after a change to the user's tokens, account, roles or memberships is committed. */
  invalidateUser(userId: string | number): Promise<void> {
    return this.publish(String(userId));
  }

  /** Call after a change that may affect any user (a role's permissions) is committed. */
  invalidateEveryone(): Promise<void> {
    return this.publish(EVERYONE);
  }

  private async publish(message: string): Promise<void> {
    this.forget(message);
    try {
      await this.redis?.publish(this.channel, message);
    } catch (e) {
      // Other replicas then follow within TOKEN_IDENTITY_TTL_MS.
      this.logger.warn(`could not publish a token identity change: ${(e as Error).message}`);
    }
  }

  private forget(message: string): void {
    this.generation++;
    if (message === EVERYONE) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (entry.userId === message) this.entries.delete(key);
  }

  private subscribe(redis: Redis): void {
    // No ready check: its INFO is refused once the connection is in subscriber mode (on reconnects).
    const sub = redis.duplicate({ keyPrefix: undefined, enableReadyCheck: false });
    this.subscriber = sub;
    sub.on('message', (_channel: string, message: string) => this.forget(message));
    // Messages published while disconnected are lost: start from an empty cache after every (re)subscription.
    const down = () => {
      this.live = false;
      this.forget(EVERYONE);
    };
    sub.on('close', down);
    sub.on('reconnecting', down);
    sub.on('error', () => undefined);
    sub.on('ready', () => {
      sub.subscribe(this.channel).then(
        () => {
          this.forget(EVERYONE);
          this.live = true;
        },
        () => down(),
      );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.live = false;
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}
