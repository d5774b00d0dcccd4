import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { createRedis } from './redis';

/** The message that drops every entry (a change that may concern any tag). */
export const INVALIDATE_ALL = '*';

/** What a load returns: the value, the tag its changes are announced under, and its own end of life. */
export interface CacheLoad<T> {
  value: T;
  /** What invalidates the entry (a client id, a user id): `invalidate(tag)` drops every entry with it. */
  tag: string;
  /** Epoch ms after which the value is invalid whatever the TTL (a token's own expiry). */
  validUntil?: number;
}

export interface InvalidatedCacheOptions {
  /** Full pub/sub channel name (with the deployment's prefix); every replica of one cache uses the same. */
  channel: string;
  /** How long another replica may keep an entry if the invalidation message never reaches it. */
  ttlMs: number;
  maxEntries?: number;
  /** For log lines. */
  name: string;
  /** Only for processes without a shared client (a CLI): a connection of their own, to publish changes. */
  publisherUrl?: string;
}

interface Entry<T> {
  value: T;
  tag: string;
  expiresAt: number;
}

/**
 * Values kept in process for a few seconds and dropped on every replica when a change is published
 * on Redis (the one implementation behind iam's client cache and kb-api's token identity cache).
 *
 * - The process that makes a change drops the affected entries before `invalidate` returns, and a
 *   load that was in flight when any change landed is never stored (generation check), so it
 *   cannot put the old state back.
 * - Other replicas drop them when the message arrives. The cache serves only while its
 *   subscription is live and starts empty after every (re)subscription, because messages published
 *   while disconnected are lost; every entry expires after `ttlMs` regardless (or at its own
 *   `validUntil`), which bounds staleness when a message is lost.
 * - Without a Redis client nothing could tell this process about changes elsewhere: no caching.
 * - Misses (a load returning null) are never cached: a row created a moment later must work at once.
 */
export class PubSubInvalidatedCache<T> {
  private readonly logger: Logger;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly maxEntries: number;
  private generation = 0;
  private subscriber?: Redis;
  private live = false;
  private ownPublisher?: Redis;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly options: InvalidatedCacheOptions,
  ) {
    this.logger = new Logger(options.name);
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  get channel(): string {
    return this.options.channel;
  }

  async get(key: string, load: () => Promise<CacheLoad<T> | null>): Promise<T | null> {
    if (!this.redis) return (await load())?.value ?? null;
    if (!this.subscriber) this.subscribe(this.redis);
    if (!this.live) return (await load())?.value ?? null;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expiresAt > now) return hit.value;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return null;
    const expiresAt = Math.min(now + this.options.ttlMs, loaded.validUntil ?? Infinity);
    if (this.live && generation === this.generation && expiresAt > Date.now()) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value: loaded.value, tag: loaded.tag, expiresAt });
    }
    return loaded.value;
  }

  /** Call after a change is committed and before it is acknowledged. */
  invalidate(tag: string): Promise<void> {
    return this.publish(tag);
  }

  /** Call after a change that may concern any entry is committed. */
  invalidateAll(): Promise<void> {
    return this.publish(INVALIDATE_ALL);
  }

  private async publish(message: string): Promise<void> {
    this.forget(message);
    try {
      const url = this.options.publisherUrl;
      const publisher = this.redis ?? (this.ownPublisher ??= url ? createRedis(url, { maxRetriesPerRequest: 1 }) : undefined);
      await publisher?.publish(this.options.channel, message);
    } catch (e) {
      // Other replicas then follow within the TTL.
      this.logger.warn(`could not publish a change (${message}): ${(e as Error).message}`);
    }
  }

  private forget(message: string): void {
    this.generation++;
    if (message === INVALIDATE_ALL) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (entry.tag === message) this.entries.delete(key);
  }

  private subscribe(redis: Redis): void {
    // No ready check: after a reconnect ioredis would send INFO while the connection is already
    // back in subscriber mode, which Redis refuses, and the cache would never go live again.
    // The name makes the connection findable in CLIENT LIST.
    const sub = redis.duplicate({ keyPrefix: undefined, enableReadyCheck: false, connectionName: `cache:${this.options.channel}` });
    this.subscriber = sub;
    sub.on('message', (_channel: string, message: string) => this.forget(message));
    // Messages published while disconnected are lost: start from an empty cache after every (re)subscription.
    const down = () => {
      this.live = false;
      this.forget(INVALIDATE_ALL);
    };
    sub.on('close', down);
    sub.on('reconnecting', down);
    sub.on('error', () => undefined);
    sub.on('ready', () => {
      sub.subscribe(this.options.channel).then(
        () => {
          this.forget(INVALIDATE_ALL);
          this.live = true;
        },
        () => down(),
      );
    });
  }

  async close(): Promise<void> {
    this.live = false;
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
    await this.ownPublisher?.quit().catch(() => this.ownPublisher?.disconnect());
  }
}
