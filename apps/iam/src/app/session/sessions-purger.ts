import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { SessionsRepository } from './sessions.repository';

/** Ended or expired sessions are kept a day (for support questions), then deleted. */
const KEEP_MS = 24 * 3600 * 1000;

@Injectable()
export class SessionsPurger {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  async purge(): Promise<{ purged: number }> {
    const cutoff = new Date(this.clock.now().getTime() - KEEP_MS);
    return { purged: await this.sessions.purgeBefore(cutoff) };
  }
}
