import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EnvelopeCipher, generateToken, SecretHasher } from '@platform/crypto';
import { DomainError } from '@platform/observability';
import { DataSource, EntityManager } from 'typeorm';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '@platform/runtime';
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
    @InjectDataSource() private readonly dataSource: DataSource,
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

  async audit(em: EntityManager | DataSource, actor: string, action: string, clientId: string | null, details: Record<string, unknown> = {}) {
    await em.query('INSERT INTO iam_audit_log (at, actor, action, client_id, details) VALUES ($1, $2, $3, $4, $5)', [
      this.clock.now(),
      actor,
      action,
      clientId,
      details,
    ]);
  }

  /** Locks the application's client row for the rest of the transaction. */
  private async lockClient(em: EntityManager, app: string): Promise<OAuthClient> {
    const [row] = await em.query('SELECT client_id FROM oauth_clients WHERE application_key = $1 FOR UPDATE', [app]);
    if (!row) throw notFound(app);
    return (await this.clients.findByClientId(row.client_id, em))!;
  }

  /** Makes the new secret current and keeps the previous one valid until the grace ends. */
  private async applyRotation(em: EntityManager, client: OAuthClient, forPickup: boolean): Promise<RotatedSecret> {
    const now = this.clock.now();
    const secret = this.newSecret();
    const graceUntil = new Date(now.getTime() + this.config.get('IAM_OAUTH_CLIENT_SECRET_GRACE_SEC') * 1000);
    await em.query(
      `UPDATE oauth_clients SET previous_secret_hash = secret_hash, previous_secret_grace_until = $2, secret_hash = $3,
         secret_rotated_at = $4, secret_expires_at = $5, secret_pending_encrypted = $6, updated_at = $4
       WHERE client_id = $1`,
      [
        client.clientId,
        graceUntil,
        this.hasher.hash(secret),
        now,
        this.secretExpiry(now),
        forPickup ? this.cipher.encrypt(secret, `pending-secret:${client.clientId}`) : null,
      ],
    );
    return { client_id: client.clientId, client_secret: secret, grace_until: graceUntil.toISOString() };
  }

  async rotate(app: string, actor: string): Promise<RotatedSecret> {
    const rotated = await this.dataSource.transaction(async (em) => {
      const client = await this.lockClient(em, app);
      if (client.revokedAt) throw new DomainError('client_revoked', 409, 'the client is revoked');
      if (!client.isConfidential || client.tokenEndpointAuthMethod === 'private_key_jwt') {
        throw new DomainError('no_secret', 422, 'the client has no shared secret to rotate');
      }
      if (this.graceActive(client)) {
        throw new DomainError('grace_active', 409, `the previous secret is still in grace until ${client.previousSecretGraceUntil!.toISOString()}`);
      }
      const result = await this.applyRotation(em, client, false);
      await this.audit(em, actor, 'client.secret_rotated', client.clientId, { grace_until: result.grace_until });
      return result;
    });
    await this.clients.changed(rotated.client_id);
    return rotated;
  }

  async revoke(app: string, actor: string): Promise<{ client_id: string; revoked: true; revoked_at: string }> {
    const revoked = await this.dataSource.transaction(async (em) => {
      const client = await this.lockClient(em, app);
      if (client.revokedAt) throw new DomainError('client_revoked', 409, 'the client is already revoked');
      const now = this.clock.now();
      await em.query('UPDATE oauth_clients SET revoked_at = $2, secret_pending_encrypted = NULL, updated_at = $2 WHERE client_id = $1', [client.clientId, now]);
      await this.audit(em, actor, 'client.revoked', client.clientId);
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
  secretStatus(client: OAuthClient): SecretStatus {
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
    const cleared = await this.dataSource.query(
      `UPDATE oauth_clients SET secret_pending_encrypted = NULL
        WHERE secret_pending_encrypted IS NOT NULL AND (previous_secret_grace_until IS NULL OR previous_secret_grace_until <= $1)`,
      [now],
    );
    const rotated = await this.dataSource.transaction(async (em) => {
      const due: Array<{ client_id: string }> = await em.query(
        `SELECT client_id FROM oauth_clients
          WHERE auto_rotate AND rotate_interval_days > 0 AND revoked_at IS NULL AND is_confidential
            AND token_endpoint_auth_method IN ('client_secret_basic', 'client_secret_post')
            AND (previous_secret_grace_until IS NULL OR previous_secret_grace_until <= $1)
            AND (secret_rotated_at IS NULL OR secret_rotated_at <= $1 - make_interval(days => rotate_interval_days))
          FOR UPDATE SKIP LOCKED`,
        [now],
      );
      const done: string[] = [];
      for (const { client_id } of due) {
        const client = (await this.clients.findByClientId(client_id, em))!;
        await this.applyRotation(em, client, true);
        await this.audit(em, actor, 'client.secret_auto_rotated', client_id);
        done.push(client_id);
      }
      return done;
    });
    for (const clientId of rotated) await this.clients.changed(clientId);
    return { rotated, pending_cleared: cleared[1] ?? 0 };
  }

  /** Self-fetch: the pending secret, exactly once (the UPDATE clears it atomically). */
  async pickUp(client: OAuthClient): Promise<{ rotated: false } | ({ rotated: true } & RotatedSecret)> {
    const [rows] = await this.dataSource.query(
      `UPDATE oauth_clients c SET secret_pending_encrypted = NULL
         FROM (SELECT client_id, secret_pending_encrypted FROM oauth_clients WHERE client_id = $1 FOR UPDATE) old
        WHERE c.client_id = old.client_id AND old.secret_pending_encrypted IS NOT NULL
        RETURNING old.secret_pending_encrypted AS pending, c.previous_secret_grace_until AS grace_until`,
      [client.clientId],
    );
    const row = rows?.[0];
    if (!row) return { rotated: false };
    await this.audit(this.dataSource, `client:${client.clientId}`, 'client.secret_picked_up', client.clientId);
    return {
      rotated: true,
      client_id: client.clientId,
      client_secret: this.cipher.decrypt(row.pending, `pending-secret:${client.clientId}`),
      grace_until: new Date(row.grace_until).toISOString(),
    };
  }
}
