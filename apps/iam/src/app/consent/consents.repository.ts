import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What a user allowed a third-party client; a later request for more scopes asks again. */
@Injectable()
export class ConsentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async covers(userId: string, clientId: string, scopes: string[]): Promise<boolean> {
    const [row] = await this.dataSource.query('SELECT scopes FROM iam_consents WHERE user_id = $1 AND client_id = $2', [userId, clientId]);
    return !!row && scopes.every((s) => (row.scopes as string[]).includes(s));
  }

  async grant(userId: string, clientId: string, scopes: string[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO iam_consents (user_id, client_id, scopes) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, client_id) DO UPDATE SET granted_at = now(),
         scopes = ARRAY(SELECT DISTINCT unnest(iam_consents.scopes || EXCLUDED.scopes))`,
      [userId, clientId, scopes],
    );
  }
}
