import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { randomString } from '@platform/crypto';
import type Redis from 'ioredis';
import { Clock } from '@platform/runtime';

/** Authorization request parameters; only `resource` may repeat (RFC 8707). */
export type AuthorizationParams = Record<string, string | string[] | undefined>;

export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** A pushed request as authorize uses it. */
export interface PushedRequest {
  params: AuthorizationParams;
  /**
   * Unix seconds: only a sign-in at or after it counts. Set by iam, never by the client, when a
   * request went to sign in again (`prompt=login`, `max_age`): the parameters that asked for it are
   * not carried on, so that whoever holds an older session cannot open the continued request.
   */
  signedInAfter?: number;
}

interface Stored extends PushedRequest {
  /** By the injectable clock; Redis' own expiry only collects what nobody consumed. */
  expiresAt: number;
}

/**
 * Pushed authorization requests (RFC 9126) in Redis, shared by every replica: a random
 * `request_uri` per request, usable once (GETDEL, so of two concurrent uses exactly one gets it)
 * and only by the client that pushed it (the key includes the client id, so another client
 * cannot even spend it).
 */
@Injectable()
export class PushedRequests {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  async push(clientId: string, params: AuthorizationParams, ttlSec: number, signedInAfter?: number): Promise<string> {
    const requestUri = `${REQUEST_URI_PREFIX}${randomString(32)}`;
    const value: Stored = { params, signedInAfter, expiresAt: this.clock.now().getTime() + ttlSec * 1000 };
    await this.redis.set(this.key(clientId, requestUri), JSON.stringify(value), 'EX', ttlSec + 60);
    return requestUri;
  }

  /** The pushed request, removed so the request_uri can never be used again; undefined when unknown, used or expired. */
  async consume(clientId: string, requestUri: string): Promise<PushedRequest | undefined> {
    const stored = this.live(await this.redis.getdel(this.key(clientId, requestUri)));
    return stored && { params: stored.params, signedInAfter: stored.signedInAfter };
  }

  /** The pushed parameters without using them up (the consent page shows what is asked). */
  async peek(clientId: string, requestUri: string): Promise<AuthorizationParams | undefined> {
    return this.live(await this.redis.get(this.key(clientId, requestUri)))?.params;
  }

  private live(raw: string | null): Stored | undefined {
    if (!raw) return undefined;
    const stored = JSON.parse(raw) as Stored;
    return stored.expiresAt > this.clock.now().getTime() ? stored : undefined;
  }

  private key(clientId: string, requestUri: string): string {
    return `iam:par:${createHash('sha256').update(`${clientId}|${requestUri}`).digest('base64url')}`;
  }
}
