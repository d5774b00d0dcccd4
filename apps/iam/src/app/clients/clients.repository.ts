import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ClientCache } from './client-cache';
import { OAuthClient } from './oauth-client.entity';

/** The only TypeORM user for clients. */
@Injectable()
export class ClientsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ClientCache,
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
    return this.findOne('client_id', clientId, em);
  }

  findByApplication(applicationKey: string): Promise<OAuthClient | null> {
    return this.findOne('application_key', applicationKey, this.dataSource);
  }

  private async findOne(column: 'client_id' | 'application_key', value: string, em: EntityManager | DataSource): Promise<OAuthClient | null> {
    const rows: Array<Record<string, unknown>> = await em.query(`SELECT * FROM oauth_clients WHERE ${column} = $1`, [value]);
    if (rows.length === 0) return null;
    const metadata = this.dataSource.getMetadata(OAuthClient);
    const client = new OAuthClient();
    for (const column of metadata.columns) {
      (client as unknown as Record<string, unknown>)[column.propertyName] = rows[0][column.databaseName];
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
