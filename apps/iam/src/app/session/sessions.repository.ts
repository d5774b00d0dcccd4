import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface SessionRow {
  id: string;
  user_id: string;
  auth_time: Date;
  aal: 'aal1' | 'aal2' | 'aal3';
  amr: string[];
  expires_at: Date;
}

/** The only SQL on iam_sessions: rows are found by the keyed hash of the cookie's token. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live session of an active user behind a token hash. */
  async findLive(tokenHash: string, now: Date): Promise<SessionRow | undefined> {
    const [row]: SessionRow[] = await this.dataSource.query(
      `SELECT s.id, s.user_id, s.auth_time, s.aal, s.amr, s.expires_at FROM iam_sessions s
       JOIN iam_users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2 AND u.active`,
      [tokenHash, now],
    );
    return row;
  }

  async insert(s: { tokenHash: string; userId: string; authTime: Date; aal: string; amr: string[]; expiresAt: Date }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO iam_sessions (token_hash, user_id, auth_time, aal, amr, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [s.tokenHash, s.userId, s.authTime, s.aal, s.amr, s.expiresAt],
    );
  }

  async raise(id: string, aal: string, amr: string[], authTime: Date): Promise<void> {
    await this.dataSource.query(`UPDATE iam_sessions SET aal = $2, amr = $3, auth_time = $4 WHERE id = $1`, [id, aal, amr, authTime]);
  }

  async end(tokenHash: string, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE iam_sessions SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL`, [tokenHash, at]);
  }

  /** Deletes sessions that expired or ended before the cutoff; returns how many. */
  async purgeBefore(cutoff: Date): Promise<number> {
    const [, purged] = await this.dataSource.query('DELETE FROM iam_sessions WHERE expires_at < $1 OR ended_at < $1', [cutoff]);
    return purged;
  }
}
