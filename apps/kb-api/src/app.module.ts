import { Module } from '@nestjs/common';
import { QueueModule } from '@platform/queue';
import { PlatformModule } from '@platform/runtime';
import { KbAdminModule } from './app/admin/admin.module';
import { KbAuthModule } from './app/auth/auth.module';
import { ChatModule } from './app/chat/chat.module';
import { DocumentsModule } from './app/documents/documents.module';
import { KbGuardrailsModule } from './app/guardrails/kb-guardrails.module';
import { IngestModule } from './app/ingest/ingest.module';
import { KbCryptoModule } from './app/kb-crypto.module';
import { KbAdminInsightModule } from './app/admin-insight/admin-insight.module';
import { KbAdminKnowledgeModule } from './app/admin-knowledge/admin-knowledge.module';
import { KbAdminOperationsModule } from './app/admin-operations/admin-operations.module';
import { KbMcpModule } from './app/mcp/mcp.module';
import { KbWidgetModule } from './app/widget/widget.module';
import { KbOpenApiModule } from './app/openapi.controller';
import { KbSystemAdminModule } from './app/system-admin/system-admin.module';
import { ConversationsModule } from './app/conversations/conversations.module';
import { NotificationsModule } from './app/notifications/notifications.module';
import { ChatPreferencesModule } from './app/preferences/chat-preferences.module';
import { PresetsModule } from './app/presets/presets.module';
import { PromotionModule } from './app/promotion/promotion.module';
import { RequestLogModule } from './app/request-log/request-log.module';
import { RowSecurityModule } from './app/row-security/row-security.module';
import { KbApiEnv } from './config/env';
import { KbConfigModule } from './config/kb-config';
import { entities } from './data-source';
import { migrations } from './migrations';

@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'kb-api',
      env: KbApiEnv,
      database: { defaultName: 'kb', entities, migrations },
    }),
    KbConfigModule,
    QueueModule.forRoot('kb-api'),
    RowSecurityModule,
    KbCryptoModule,
    KbAuthModule,
    KbAdminModule,
    KbSystemAdminModule,
    KbOpenApiModule,
    IngestModule.api(),
    KbGuardrailsModule,
    ChatModule,
    DocumentsModule,
    NotificationsModule,
    PromotionModule,
    ConversationsModule,
    PresetsModule,
    ChatPreferencesModule,
    KbAdminKnowledgeModule,
    RequestLogModule,
    KbAdminInsightModule,
    KbAdminOperationsModule,
    KbWidgetModule,
    KbMcpModule,
  ],
})
export class AppModule {}
