import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import { createRedis } from '@platform/queue';
import type Redis from 'ioredis';
import type { OAuthClient } from './oauth-client.entity';

/**
 * How long another replica may keep using a client row after a change made elsewhere, if the
 * invalidation message never reaches it (docs/iam.md, "Client cache").
 */
export const CLIENT_CACHE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/**
 * Client rows for token-endpoint authentication, kept in process for a few seconds.
 *
 * - The replica that changes a client drops its entry before the change is acknowledged, and a
 *   load that was already in flight when any change landed is never stored (generation check),
 *   so a revoked client or a replaced secret stops working there at once.
 * - Other replicas drop the entry when the change is published on Redis; the cache is only used
 *   while the subscription is live (after a reconnect it starts empty), and entries expire after
 *   CLIENT_CACHE_TTL_MS regardless, which bounds staleness when a message is lost.
 * - Time-based rules (grace windows) are evaluated per request by the authenticator, not cached.
 */
@Injectable()
export class ClientCache implements OnApplicationShutdown {
  private readonly logger = new Logger('ClientCache');
  private readonly entries = new Map<string, { client: OAuthClient; expiresAt: number }>();
  private generation = 0;
  private subscriber?: Redis;
  private live = false;
  /** Only in contexts without the shared client (the CLI): a connection of its own, to publish changes. */
  private ownPublisher?: Redis;
  private readonly redisUrl?: string;
  readonly channel: string;

  constructor(
    config: ConfigService,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: Redis,
  ) {
    const prefix = config.get<string>('REDIS_PREFIX');
    this.channel = `${prefix ? `${prefix}:` : ''}iam:client-changed`;
    this.redisUrl = config.get<string>('REDIS_URL');
  }

  async get(clientId: string, load: () => Promise<OAuthClient | null>): Promise<OAuthClient | null> {
    // Without a shared Redis client nothing could tell this process about changes: no caching.
    if (!this.redis) return load();
    if (!this.subscriber) this.subscribe(this.redis);
    if (!this.live) return load();
    const hit = this.entries.get(clientId);
    const now = Date.now();
    if (hit && hit.expiresAt > now) return hit.client;
    const generation = this.generation;
    const client = await load();
    // Unknown ids are not cached: a client created a moment later must work at once.
    if (client && this.live && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(clientId, { client, expiresAt: now + CLIENT_CACHE_TTL_MS });
    }
    return client;
  }

  /** Call after a change to the client's row is committed and before it is acknowledged. */
  async invalidate(clientId: string): Promise<void> {
    this.forget(clientId);
    try {
      const publisher = this.redis ?? (this.ownPublisher ??= this.redisUrl ? createRedis(this.redisUrl, { maxRetriesPerRequest: 1 }) : undefined);
      await publisher?.publish(this.channel, clientId);
    } catch (e) {
      // Other replicas then follow within CLIENT_CACHE_TTL_MS.
      this.logger.warn(`could not publish the change of ${clientId}: ${(e as Error).message}`);
    }
  }

  private forget(clientId: string): void {
    this.generation++;
    this.entries.delete(clientId);
  }

  private reset(): void {
    this.generation++;
    this.entries.clear();
  }

  private subscribe(redis: Redis): void {
    const sub = redis.duplicate({ keyPrefix: undefined });
    this.subscriber = sub;
    sub.on('message', (_channel: string, clientId: string) => this.forget(clientId));
    // Messages published while disconnected are lost: start from an empty cache after every (re)subscription.
    const down = () => {
      this.live = false;
      this.reset();
    };
    sub.on('close', down);
    sub.on('reconnecting', down);
    sub.on('error', () => undefined);
    sub.on('ready', () => {
      sub.subscribe(this.channel).then(
        () => {
          this.reset();
          this.live = true;
        },
        () => down(),
      );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.live = false;
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
    await this.ownPublisher?.quit().catch(() => this.ownPublisher?.disconnect());
  }
}
