import { Module } from '@nestjs/common';
import { KbAuthModule } from '../auth/auth.module';
import { IdentityLinksController } from './identity-links.controller';
import { IdentityLinksRepository } from './identity-links.repository';
import { IdentityLinksService } from './identity-links.service';

/** Which KB user an iam identity acts as at /mcp/kb, and the admin routes for explicit links. */
@Module({
  imports: [KbAuthModule],
  controllers: [IdentityLinksController],
  providers: [IdentityLinksRepository, IdentityLinksService],
  exports: [IdentityLinksService],
})
export class IdentityLinksModule {}
