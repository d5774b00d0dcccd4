import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OAuthClient } from './oauth-client.entity';

/** The only TypeORM user for clients. */
@Injectable()
export class ClientsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findByClientId(clientId: string): Promise<OAuthClient | null> {
    return this.dataSource.getRepository(OAuthClient).findOneBy({ clientId });
  }

  /** Inserts or updates by client_id (seed and manifest apply). */
  async upsert(client: Partial<OAuthClient> & { clientId: string }): Promise<OAuthClient> {
    const repo = this.dataSource.getRepository(OAuthClient);
    const existing = await repo.findOneBy({ clientId: client.clientId });
    return repo.save(existing ? repo.merge(existing, { ...client, updatedAt: new Date() }) : repo.create(client));
  }
}
