import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface PasskeyRow {
  credential_id: string;
  user_id: string;
  public_key: Buffer;
  sign_count: string;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

@Injectable()
export class PasskeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  listFor(userId: string): Promise<PasskeyRow[]> {
    return this.dataSource.query('SELECT * FROM iam_passkeys WHERE user_id = $1 ORDER BY created_at', [userId]);
  }

  async find(credentialId: string): Promise<PasskeyRow | null> {
    const [row] = await this.dataSource.query('SELECT * FROM iam_passkeys WHERE credential_id = $1', [credentialId]);
    return row ?? null;
  }

  async insert(p: Omit<PasskeyRow, 'created_at' | 'last_used_at'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO iam_passkeys (credential_id, user_id, public_key, sign_count, transports, device_type, backed_up, name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [p.credential_id, p.user_id, p.public_key, p.sign_count, p.transports, p.device_type, p.backed_up, p.name],
    );
  }

  async recordUse(credentialId: string, counter: number, backedUp: boolean, at: Date): Promise<void> {
    await this.dataSource.query('UPDATE iam_passkeys SET sign_count = $2, backed_up = $3, last_used_at = $4 WHERE credential_id = $1', [credentialId, counter, backedUp, at]);
  }

  async remove(userId: string, credentialId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM iam_passkeys WHERE user_id = $1 AND credential_id = $2', [userId, credentialId]);
  }
}
