import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '@platform/runtime';
import { ClientMetadataDocuments } from '../registration/client-metadata-documents';
import { ClientCache } from './client-cache';
import { OAuthClient } from './oauth-client.entity';

/**
 * Text Postgres cannot hold as sent: a NUL (refused with a data exception) or a lone UTF-16
 * surrogate (stored as U+FFFD, so two inputs would name one row).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The only TypeORM user for clients. */
@Injectable()
export class ClientsRepository {
  private readonly logger = new Logger('ClientsRepository');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ClientCache,
    private readonly documents: ClientMetadataDocuments,
    private readonly clock: Clock,
  ) {}

  /**
   * The row token-endpoint authentication reads, from the short-lived client cache (see
   * ClientCache for why a revoked client or replaced secret still stops working at once).
   */
  findForAuthentication(clientId: string): Promise<OAuthClient | null> {
    return this.cache.get(clientId, () => this.findByClientId(clientId));
  }

  /** Every committed change to a client row goes through here before it is acknowledged. */
  changed(clientId: string): Promise<void> {
    return this.cache.invalidate(clientId);
  }

  /**
   * Read on every token request: one plain indexed query mapped by TypeORM's metadata, without
   * the query builder's per-call work.
   */
  async findByClientId(clientId: string, em: EntityManager | DataSource = this.dataSource): Promise<OAuthClient | null> {
    if (unstorable(clientId)) return null;
    const stored = await this.findOne('client_id', clientId, em);
    if (!this.documents.policy.looksLikeDocumentUrl(clientId) || (stored && stored.registrationType !== 'metadata_document')) return stored;
    return this.fromMetadataDocument(clientId, stored);
  }

  /**
   * A client as already stored, never resolved by fetching a metadata document: for the pages
   * anyone can open without signing in (the sign-in pages' "continue to", consent), where a
   * lookup that fetched would let any visitor make iam fetch any URL, as often as they like. The
   * authorize endpoint resolves the client (fetching if needed) before it sends a browser there,
   * so a genuine request finds its row. A document's client whose host the policy no longer allows
   * is none, as it is everywhere else.
   */
  async findKnown(clientId: string): Promise<OAuthClient | null> {
    const stored = await this.findOne('client_id', clientId, this.dataSource);
    if (stored?.registrationType === 'metadata_document' && this.documents.policy.documentUrlRefusal(clientId)) return null;
    return stored;
  }

  /**
   * A client_id that is a URL is resolved through its Client ID Metadata Document. The row kept
   * for it is a cache of the document shared by every replica: used until metadata_expires_at,
   * then fetched again. The host policy is applied on every lookup (a host taken off the list
   * stops working at once), and a revoked row stays revoked whatever the document says.
   */
  private async fromMetadataDocument(clientId: string, stored: OAuthClient | null): Promise<OAuthClient | null> {
    const refusal = this.documents.policy.documentUrlRefusal(clientId);
    if (refusal) {
      this.logger.warn(`client metadata document of ${clientId} refused: ${refusal}`);
      return null;
    }
    if (stored && (stored.revokedAt || (stored.metadataExpiresAt && stored.metadataExpiresAt > this.clock.now()))) return stored;
    let doc;
    try {
      doc = await this.documents.fetch(clientId);
    } catch (e) {
      this.logger.warn(`client metadata document of ${clientId} refused: ${(e as Error).message}`);
      return null;
    }
    // Only a metadata-document row (or none) is ever written here: a registered client keeps its own row.
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `INSERT INTO oauth_clients (client_id, name, is_confidential, token_endpoint_auth_method, redirect_uris, grant_types, scopes,
                                  first_party, registration_type, metadata_expires_at)
       VALUES ($1, $2, false, 'none', $3, $4, $5, false, 'metadata_document', $6)
       ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris,
         grant_types = EXCLUDED.grant_types, scopes = EXCLUDED.scopes, metadata_expires_at = EXCLUDED.metadata_expires_at, updated_at = now()
       WHERE oauth_clients.registration_type = 'metadata_document' AND oauth_clients.revoked_at IS NULL
       RETURNING *`,
      [clientId, doc.name, doc.redirectUris, doc.grantTypes, doc.scopes, doc.expiresAt],
    );
    await this.changed(clientId);
    return rows.length ? this.toEntity(rows[0]) : this.findOne('client_id', clientId, this.dataSource);
  }

  findByApplication(applicationKey: string): Promise<OAuthClient | null> {
    return this.findOne('application_key', applicationKey, this.dataSource);
  }

  private async findOne(column: 'client_id' | 'application_key', value: string, em: EntityManager | DataSource): Promise<OAuthClient | null> {
    // A client id comes from a caller before it is authenticated, and not always through the edge
    // layer's checks (a Basic header is decoded here, an assertion's iss read from its JSON): one
    // that no row can have is no client, so its caller gets the 401 invalid_client of any unknown
    // client instead of a database error (400) that tells it apart.
    if (unstorable(value)) return null;
    const rows: Array<Record<string, unknown>> = await em.query(`SELECT * FROM oauth_clients WHERE ${column} = $1`, [value]);
    return rows.length === 0 ? null : this.toEntity(rows[0]);
  }

  private toEntity(row: Record<string, unknown>): OAuthClient {
    const metadata = this.dataSource.getMetadata(OAuthClient);
    const client = new OAuthClient();
    for (const column of metadata.columns) {
      (client as unknown as Record<string, unknown>)[column.propertyName] = row[column.databaseName];
    }
    return client;
  }

  /** Inserts or updates by client_id (seed and manifest apply). */
  async upsert(client: Partial<OAuthClient> & { clientId: string }): Promise<OAuthClient> {
    const repo = this.dataSource.getRepository(OAuthClient);
    const existing = await repo.findOneBy({ clientId: client.clientId });
    const saved = await repo.save(existing ? repo.merge(existing, { ...client, updatedAt: new Date() }) : repo.create(client));
    await this.changed(client.clientId);
    return saved;
  }
}
