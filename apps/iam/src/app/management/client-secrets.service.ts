import { Injectable } from '@nestjs/common';
import { EnvelopeCipher, generateToken, SecretHasher } from '@platform/crypto';
import { DomainError } from '@platform/observability';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '@platform/runtime';
import { ApplicationsInTransaction, ApplicationsRepository } from './applications.repository';
import { IamConfig } from '../../config/iam-config';

export type SecretStatus = 'ok' | 'expiring' | 'expired' | 'revoked' | 'public';

export interface RotatedSecret {
  client_id: string;
  client_secret: string;
  grace_until: string;
}

const notFound = (app: string) => new DomainError('not_found', 404, `application "${app}" has no client`);

/**
 * The client-secret lifecycle of the spec's state table: rotation with a grace window, revocation,
 * automatic rotation with one-time pickup, and the status an operator sees. Secrets leave this
 * service exactly once and are stored only as keyed hashes (pending pickups: encrypted).
 */
@Injectable()
export class ClientSecretsService {
  constructor(
    private readonly store: ApplicationsRepository,
    private readonly clients: ClientsRepository,
    private readonly hasher: SecretHasher,
    private readonly cipher: EnvelopeCipher,
    readonly clock: Clock,
    private readonly config: IamConfig,
  ) {}

  newSecret(): string {
    return generateToken('ics');
  }

  /** When a secret issued at `now` expires (soft), or null without IAM_OAUTH_CLIENT_SECRET_TTL. */
  secretExpiry(now: Date): Date | null {
    const ttl = this.config.get('IAM_OAUTH_CLIENT_SECRET_TTL');
    return ttl ? new Date(now.getTime() + ttl * 1000) : null;
  }

  /** Locks the application's client row for the rest of the transaction. */
  private async lockClient(tx: ApplicationsInTransaction, app: string): Promise<OAuthClient> {
    const client = await tx.lockClientOf(app);
    if (!client) throw notFound(app);
    return client;
  }

  /** Makes the new secret current and keeps the previous one valid until the grace ends. */
  private async applyRotation(tx: ApplicationsInTransaction, client: OAuthClient, forPickup: boolean): Promise<RotatedSecret> {
    const now = this.clock.now();
    const secret = this.newSecret();
    const graceUntil = new Date(now.getTime() + this.config.get('IAM_OAUTH_CLIENT_SECRET_GRACE_SEC') * 1000);
    await tx.storeSecret(client.clientId, {
      hash: this.hasher.hash(secret),
      rotatedAt: now,
      expiresAt: this.secretExpiry(now),
      previousGraceUntil: graceUntil,
      pendingEncrypted: forPickup ? this.cipher.encrypt(secret, `pending-secret:${client.clientId}`) : null,
    });
    return { client_id: client.clientId, client_secret: secret, grace_until: graceUntil.toISOString() };
  }

  async rotate(app: string, actor: string): Promise<RotatedSecret> {
    const rotated = await this.store.transaction(async (tx) => {
      const client = await this.lockClient(tx, app);
      if (client.revokedAt) throw new DomainError('client_revoked', 409, 'the client is revoked');
      if (!client.isConfidential || client.tokenEndpointAuthMethod === 'private_key_jwt') {
        throw new DomainError('no_secret', 422, 'the client has no shared secret to rotate');
      }
      if (this.graceActive(client)) {
        throw new DomainError('grace_active', 409, `the previous secret is still in grace until ${client.previousSecretGraceUntil!.toISOString()}`);
      }
      const result = await this.applyRotation(tx, client, false);
      await tx.audit(this.clock.now(), actor, 'client.secret_rotated', client.clientId, { grace_until: result.grace_until });
      return result;
    });
    await this.clients.changed(rotated.client_id);
    return rotated;
  }

  async revoke(app: string, actor: string): Promise<{ client_id: string; revoked: true; revoked_at: string }> {
    const revoked = await this.store.transaction(async (tx) => {
      const client = await this.lockClient(tx, app);
      if (client.revokedAt) throw new DomainError('client_revoked', 409, 'the client is already revoked');
      const now = this.clock.now();
      await tx.revoke(client.clientId, now);
      await tx.audit(this.clock.now(), actor, 'client.revoked', client.clientId);
      return { client_id: client.clientId, revoked: true as const, revoked_at: now.toISOString() };
    });
    // Before answering: from here on this replica refuses the client, others within the cache bound.
    await this.clients.changed(revoked.client_id);
    return revoked;
  }

  async status(app: string) {
    const client = await this.clients.findByApplication(app);
    if (!client) throw notFound(app);
    const grace = this.graceActive(client);
    return {
      client_id: client.clientId,
      secret_status: this.secretStatus(client),
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      uses_private_key_jwt: client.tokenEndpointAuthMethod === 'private_key_jwt',
      is_confidential: client.isConfidential,
      ...(this.config.get('IAM_OAUTH_CLIENT_SECRET_TTL') ? { secret_expires_at: client.secretExpiresAt?.toISOString() ?? null } : {}),
      secret_rotated_at: client.secretRotatedAt?.toISOString() ?? null,
      grace_active: grace,
      grace_until: grace ? client.previousSecretGraceUntil!.toISOString() : null,
      revoked_at: client.revokedAt?.toISOString() ?? null,
      auto_rotate: client.autoRotate,
      rotate_interval_days: client.rotateIntervalDays,
    };
  }

  /** reference/iam.md §1.7, in order. Expiry is soft: it only drives these alerts. */
  secretStatus(client: Pick<OAuthClient, 'revokedAt' | 'isConfidential' | 'secretExpiresAt'>): SecretStatus {
    if (client.revokedAt) return 'revoked';
    if (!client.isConfidential) return 'public';
    if (!client.secretExpiresAt) return 'ok';
    const now = this.clock.now().getTime();
    if (client.secretExpiresAt.getTime() <= now) return 'expired';
    const warnMs = this.config.get('IAM_OAUTH_CLIENT_SECRET_WARN_DAYS') * 86_400_000;
    return client.secretExpiresAt.getTime() <= now + warnMs ? 'expiring' : 'ok';
  }

  private graceActive(client: OAuthClient): boolean {
    return client.previousSecretGraceUntil !== null && client.previousSecretGraceUntil > this.clock.now();
  }

  /**
   * `iam:rotate-due-secrets`: clears pickups whose grace lapsed, then rotates every auto-rotating
   * client whose interval is due. Rows are claimed with SKIP LOCKED, so two runs at once never
   * rotate one client twice.
   */
  async rotateDue(actor = 'system:rotate-due-secrets'): Promise<{ rotated: string[]; pending_cleared: number }> {
    const now = this.clock.now();
    const cleared = await this.store.clearLapsedPickups(now);
    const rotated = await this.store.transaction(async (tx) => {
      const done: string[] = [];
      for (const clientId of await tx.claimDueForRotation(now)) {
        const client = (await tx.findClient(clientId))!;
        await this.applyRotation(tx, client, true);
        await tx.audit(this.clock.now(), actor, 'client.secret_auto_rotated', clientId);
        done.push(clientId);
      }
      return done;
    });
    for (const clientId of rotated) await this.clients.changed(clientId);
    return { rotated, pending_cleared: cleared };
  }

  /** Self-fetch: the pending secret, exactly once (the UPDATE clears it atomically). */
  async pickUp(client: OAuthClient): Promise<{ rotated: false } | ({ rotated: true } & RotatedSecret)> {
    const row = await this.store.takePendingSecret(client.clientId);
    if (!row) return { rotated: false };
    await this.store.audit(this.clock.now(), `client:${client.clientId}`, 'client.secret_picked_up', client.clientId);
    return {
      rotated: true,
      client_id: client.clientId,
      client_secret: this.cipher.decrypt(row.pending, `pending-secret:${client.clientId}`),
      grace_until: new Date(row.grace_until).toISOString(),
    };
  }
}
