import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@platform/runtime';

/** Ended or expired sessions are kept a day (for support questions), then deleted. */
const KEEP_MS = 24 * 3600 * 1000;

@Injectable()
export class SessionsPurger {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async purge(): Promise<{ purged: number }> {
    const cutoff = new Date(this.clock.now().getTime() - KEEP_MS);
    const [, purged] = await this.dataSource.query('DELETE FROM iam_sessions WHERE expires_at < $1 OR ended_at < $1', [cutoff]);
    return { purged };
  }
}
