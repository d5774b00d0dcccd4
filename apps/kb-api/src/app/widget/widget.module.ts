import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { KbAuthModule } from '../auth/auth.module';
import { ChatModule } from '../chat/chat.module';
import { ToolApprovalsModule } from '../tool-approvals/tool-approvals.module';
import { WidgetAccessService } from './widget-access.service';
import { WidgetEmbedController } from './widget-embed.controller';
import { WidgetKeyGuard } from './widget-key.guard';
import { WidgetKeyStrategy } from './widget-key.strategy';
import { WidgetKeysController } from './widget-keys.controller';
import { WidgetKeysRepository } from './widget-keys.repository';
import { WidgetKeysService } from './widget-keys.service';
import { WidgetPreflightMiddleware } from './widget-preflight.middleware';
import { WidgetPublicController } from './widget-public.controller';
import { WidgetSessionsAdminController } from './widget-sessions-admin.controller';
import { WidgetSessionsAdminService } from './widget-sessions-admin.service';
import { WidgetSessionsRepository } from './widget-sessions.repository';
import { WidgetSessionsService } from './widget-sessions.service';
import { WidgetTokensRepository } from './widget-tokens.repository';
import { WidgetTokensService } from './widget-tokens.service';
import { WidgetToolsService } from './widget-tools.service';

/** The embeddable widget: its public API under /api/widget, widget keys and sessions admin, and the script it serves. */
@Module({
  imports: [KbAuthModule, ChatModule, ToolApprovalsModule],
  controllers: [WidgetKeysController, WidgetSessionsAdminController, WidgetPublicController, WidgetEmbedController],
  providers: [
    WidgetKeysRepository,
    WidgetKeysService,
    WidgetSessionsRepository,
    WidgetSessionsService,
    WidgetSessionsAdminService,
    WidgetTokensRepository,
    WidgetTokensService,
    WidgetToolsService,
    WidgetAccessService,
    WidgetKeyStrategy,
    WidgetKeyGuard,
  ],
})
export class KbWidgetModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WidgetPreflightMiddleware).forRoutes({ path: 'api/widget/*path', method: RequestMethod.OPTIONS });
  }
}
