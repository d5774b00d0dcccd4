import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface IamUser {
  id: string;
  email: string;
  name: string;
  active: boolean;
}

/** Users as far as the OAuth core needs them; interactive login extends this. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<IamUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await this.dataSource.query('SELECT id, email, name, active FROM iam_users WHERE id = $1', [id]);
    return row ?? null;
  }

  async upsertByEmail(email: string, name: string, passwordHash: string | null): Promise<IamUser> {
    const [row] = await this.dataSource.query(
      `INSERT INTO iam_users (email, name, password_hash) VALUES (lower(trim($1)), $2, $3)
       ON CONFLICT (lower(email)) DO UPDATE SET name = EXCLUDED.name,
         password_hash = COALESCE(EXCLUDED.password_hash, iam_users.password_hash)
       RETURNING id, email, name, active`,
      [email, name, passwordHash],
    );
    return row;
  }
}
