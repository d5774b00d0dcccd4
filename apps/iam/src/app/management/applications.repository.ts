import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';

/** A new client secret as stored: its keyed hash, and the pickup copy for automatic rotation. */
export interface StoredSecret {
  hash: string;
  rotatedAt: Date;
  expiresAt: Date | null;
  /** The previous secret keeps validating until then. */
  previousGraceUntil: Date;
  /** Encrypted for a one-time pickup (automatic rotation), else null. */
  pendingEncrypted: string | null;
}

/** The client fields an application manifest sets (oauth_clients columns, in the order the SQL takes them). */
export interface ManifestClientFields {
  name: string;
  is_confidential: boolean;
  token_endpoint_auth_method: string;
  redirect_uris: string[];
  grant_types: string[];
  scopes: string[];
  jwks: unknown;
  auto_rotate: boolean;
  rotate_interval_days: number | null;
}

/** The secret a first apply issues, or null. */
export type IssuedSecret = { hash: string; at: Date; expires: Date | null } | null;

/** The management feature's writes inside one transaction; rows read here stay locked until it ends. */
export class ApplicationsInTransaction {
  constructor(
    private readonly em: EntityManager,
    private readonly clients: ClientsRepository,
  ) {}

  findClient(clientId: string): Promise<OAuthClient | null> {
    return this.clients.findByClientId(clientId, this.em);
  }

  /** The application's client, locked for the rest of the transaction. */
  async lockClientOf(app: string): Promise<OAuthClient | null> {
    const [row] = await this.em.query('SELECT client_id FROM oauth_clients WHERE application_key = $1 FOR UPDATE', [app]);
    return row ? this.findClient(row.client_id) : null;
  }

  /** Makes `secret` current; the previous one keeps validating until its grace ends. */
  async storeSecret(clientId: string, secret: StoredSecret): Promise<void> {
    await this.em.query(
      `UPDATE oauth_clients SET previous_secret_hash = secret_hash, previous_secret_grace_until = $2, secret_hash = $3,
         secret_rotated_at = $4, secret_expires_at = $5, secret_pending_encrypted = $6, updated_at = $4
       WHERE client_id = $1`,
      [clientId, secret.previousGraceUntil, secret.hash, secret.rotatedAt, secret.expiresAt, secret.pendingEncrypted],
    );
  }

  async revoke(clientId: string, now: Date): Promise<void> {
    await this.em.query('UPDATE oauth_clients SET revoked_at = $2, secret_pending_encrypted = NULL, updated_at = $2 WHERE client_id = $1', [clientId, now]);
  }

  /**
   * Auto-rotating clients with a shared secret whose interval is due and whose previous grace has
   * lapsed, claimed with SKIP LOCKED so two runs at once never rotate one client twice.
   */
  async claimDueForRotation(now: Date): Promise<string[]> {
    const due: Array<{ client_id: string }> = await this.em.query(
      `SELECT client_id FROM oauth_clients
        WHERE auto_rotate AND rotate_interval_days > 0 AND revoked_at IS NULL AND is_confidential
          AND token_endpoint_auth_method IN ('client_secret_basic', 'client_secret_post')
          AND (previous_secret_grace_until IS NULL OR previous_secret_grace_until <= $1)
          AND (secret_rotated_at IS NULL OR secret_rotated_at <= $1 - make_interval(days => rotate_interval_days))
        FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return due.map((r) => r.client_id);
  }

  async upsertApplication(app: string, name: string, type: string): Promise<void> {
    await this.em.query(
      `INSERT INTO iam_applications (key, name, type) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, type = EXCLUDED.type, updated_at = now()`,
      [app, name, type],
    );
  }

  /**
   * Updates an application's client from its manifest; an existing secret is kept unless `issued`
   * replaces it. A client that no longer uses a shared secret (public, private_key_jwt) loses every
   * secret it had: the current one, the previous one with its grace and any pending pickup, so a
   * later switch back to a secret starts from the new one alone and never revives an old one.
   * A newly issued secret has no predecessor either.
   */
  async updateClient(clientId: string, fields: ManifestClientFields, issued: IssuedSecret): Promise<void> {
    const shared = `($3 AND $4 <> 'private_key_jwt')`;
    await this.em.query(
      `UPDATE oauth_clients SET name = $2, is_confidential = $3, token_endpoint_auth_method = $4, redirect_uris = $5,
         grant_types = $6, scopes = $7, jwks = $8, auto_rotate = $9, rotate_interval_days = $10,
         secret_hash = COALESCE($11, CASE WHEN ${shared} THEN secret_hash END),
         previous_secret_hash = CASE WHEN ${shared} AND $11::text IS NULL THEN previous_secret_hash END,
         previous_secret_grace_until = CASE WHEN ${shared} AND $11::text IS NULL THEN previous_secret_grace_until END,
         secret_pending_encrypted = CASE WHEN ${shared} AND $11::text IS NULL THEN secret_pending_encrypted END,
         secret_rotated_at = COALESCE($12, secret_rotated_at),
         secret_expires_at = CASE WHEN $11::text IS NOT NULL THEN $13 WHEN ${shared} THEN secret_expires_at END,
         updated_at = now()
       WHERE client_id = $1`,
      [clientId, ...manifestValues(fields), issued?.hash ?? null, issued?.at ?? null, issued?.expires ?? null],
    );
  }

  /** The first-party client of a new application. */
  async insertClient(clientId: string, app: string, fields: ManifestClientFields, issued: IssuedSecret): Promise<void> {
    await this.em.query(
      `INSERT INTO oauth_clients (client_id, application_key, name, is_confidential, token_endpoint_auth_method, redirect_uris,
         grant_types, scopes, jwks, auto_rotate, rotate_interval_days, secret_hash, secret_rotated_at, secret_expires_at, first_party)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, true)`,
      [clientId, app, ...manifestValues(fields), issued?.hash ?? null, issued?.at ?? null, issued?.expires ?? null],
    );
  }

  async audit(at: Date, actor: string, action: string, clientId: string | null, details: Record<string, unknown> = {}): Promise<void> {
    await this.em.query('INSERT INTO iam_audit_log (at, actor, action, client_id, details) VALUES ($1, $2, $3, $4, $5)', [at, actor, action, clientId, details]);
  }
}

const manifestValues = (f: ManifestClientFields) => [
  f.name,
  f.is_confidential,
  f.token_endpoint_auth_method,
  f.redirect_uris,
  f.grant_types,
  f.scopes,
  f.jwks,
  f.auto_rotate,
  f.rotate_interval_days,
];

/**
 * The SQL of the management feature: applications (iam_applications), their clients' credentials
 * (the secret, rotation, pickup and revocation columns of oauth_clients) and the audit log.
 */
@Injectable()
export class ApplicationsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientsRepository,
  ) {}

  transaction<T>(work: (tx: ApplicationsInTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((em) => work(new ApplicationsInTransaction(em, this.clients)));
  }

  /** Drops pickups whose grace lapsed; how many. */
  async clearLapsedPickups(now: Date): Promise<number> {
    const cleared = await this.dataSource.query(
      `UPDATE oauth_clients SET secret_pending_encrypted = NULL
        WHERE secret_pending_encrypted IS NOT NULL AND (previous_secret_grace_until IS NULL OR previous_secret_grace_until <= $1)`,
      [now],
    );
    return cleared[1] ?? 0;
  }

  /** The client's pending secret (encrypted), cleared in the same statement so it is taken once. */
  async takePendingSecret(clientId: string): Promise<{ pending: string; grace_until: Date } | undefined> {
    const [rows] = await this.dataSource.query(
      `UPDATE oauth_clients c SET secret_pending_encrypted = NULL
         FROM (SELECT client_id, secret_pending_encrypted FROM oauth_clients WHERE client_id = $1 FOR UPDATE) old
        WHERE c.client_id = old.client_id AND old.secret_pending_encrypted IS NOT NULL
        RETURNING old.secret_pending_encrypted AS pending, c.previous_secret_grace_until AS grace_until`,
      [clientId],
    );
    return rows?.[0];
  }

  async audit(at: Date, actor: string, action: string, clientId: string | null, details: Record<string, unknown> = {}): Promise<void> {
    await new ApplicationsInTransaction(this.dataSource.manager, this.clients).audit(at, actor, action, clientId, details);
  }

  /** What every client's secret status is computed from (the metrics' count). */
  secretStates(): Promise<Array<Pick<OAuthClient, 'id' | 'revokedAt' | 'isConfidential' | 'secretExpiresAt'>>> {
    return this.dataSource.getRepository(OAuthClient).find({ select: { id: true, revokedAt: true, isConfidential: true, secretExpiresAt: true } });
  }
}
