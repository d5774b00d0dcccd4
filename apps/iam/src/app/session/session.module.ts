import { Module } from '@nestjs/common';
import { IamSessionStrategy } from './iam-session.strategy';
import { SessionService } from './session.service';
import { SessionsRepository } from './sessions.repository';

/**
 * The sign-in pages' browser sessions: SessionService writes them (start, step-up, end) and the
 * `iam-session` strategy reads the one a request carries, for the guards in session.guards.ts.
 */
@Module({
  providers: [SessionService, SessionsRepository, IamSessionStrategy],
  exports: [SessionService, IamSessionStrategy],
})
export class SessionModule {}
