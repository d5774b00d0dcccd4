import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { PubSubInvalidatedCache } from '@platform/queue';
import type Redis from 'ioredis';
import { IamConfig } from '../../config/iam-config';
import type { OAuthClient } from './oauth-client.entity';

/**
 * How long another replica may keep using a client row after a change made elsewhere, if the
 * invalidation message never reaches it (docs/iam.md, "Client cache").
 */
export const CLIENT_CACHE_TTL_MS = 5000;

/**
 * Client rows for token-endpoint authentication, kept in process for a few seconds through the
 * platform's pub/sub-invalidated cache (@platform/queue): the replica that changes a client drops
 * its entry before the change is acknowledged, the others when the change is published on Redis,
 * and every entry expires after CLIENT_CACHE_TTL_MS regardless. Unknown ids are never cached.
 * Time-based rules (grace windows) are evaluated per request by the authenticator, not cached.
 */
@Injectable()
export class ClientCache implements OnApplicationShutdown {
  private readonly cache: PubSubInvalidatedCache<OAuthClient>;

  constructor(config: IamConfig, @Optional() @Inject(REDIS_CLIENT) redis?: Redis) {
    const prefix = config.get('REDIS_PREFIX');
    this.cache = new PubSubInvalidatedCache(redis, {
      name: 'ClientCache',
      channel: `${prefix ? `${prefix}:` : ''}iam:client-changed`,
      ttlMs: CLIENT_CACHE_TTL_MS,
      // Without the shared client (the CLI) changes are still announced, over a connection of its own.
      publisherUrl: config.get('REDIS_URL'),
    });
  }

  get channel(): string {
    return this.cache.channel;
  }

  async get(clientId: string, load: () => Promise<OAuthClient | null>): Promise<OAuthClient | null> {
    return this.cache.get(clientId, async () => {
      const client = await load();
      return client ? { value: client, tag: clientId } : null;
    });
  }

  /** Call after a change to the client's row is committed and before it is acknowledged. */
  invalidate(clientId: string): Promise<void> {
    return this.cache.invalidate(clientId);
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }
}
