import { DynamicModule, Module } from '@nestjs/common';
import { AnswerProvider } from '../chat/answer-provider';
import { DocumentCatalogRepository } from '../documents/document-catalog.repository';
import { McpAuditRepository } from '../mcp/audit/mcp-audit.repository';
import { McpAuditService } from '../mcp/audit/mcp-audit.service';
import { McpToolRunner } from '../mcp/server/mcp-tool-runner';
import { McpServersService } from '../mcp/servers/mcp-servers.service';
import { McpToolSettingsRepository } from '../mcp/servers/mcp-tool-settings.repository';
import { McpTokensRepository } from '../mcp/tokens/mcp-tokens.repository';
import { McpTokensService } from '../mcp/tokens/mcp-tokens.service';
import { KbToolCatalogue } from '../mcp/tools/kb-tool-catalogue';
import { McpKnowledgeRepository } from '../mcp/tools/mcp-knowledge.repository';
import { NotificationsModule } from '../notifications/notifications.module';
import { NotificationsRepository } from '../notifications/notifications.repository';
import { NotificationsService } from '../notifications/notifications.service';
import { CandidateSuggester } from '../promotion/candidate-suggester';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { UsersRepository } from '../identity/users.repository';
import { TenantsRepository } from '../tenancy/tenants.repository';
import { WidgetKeysRepository } from '../widget/widget-keys.repository';
import { WidgetSessionsRepository } from '../widget/widget-sessions.repository';
import { WidgetToolsService } from '../widget/widget-tools.service';
import { ApprovedCallsDispatch } from './approved-calls.dispatch';
import { ApprovedCallsWorker } from './approved-calls.worker';
import { ParkedCallsRepository } from './parked-calls.repository';
import { ToolApprovalsController } from './tool-approvals.controller';
import { ToolApprovalsService } from './tool-approvals.service';

/** Parked kb tool calls: approvers' links and decisions (API), the approved calls' runs (worker). */
@Module({
  imports: [NotificationsModule],
  controllers: [ToolApprovalsController],
  // The service's check of a parked call's caller reads the tenant's and the user's state.
  providers: [ParkedCallsRepository, TenantsRepository, UsersRepository, ToolApprovalsService, ApprovedCallsDispatch],
  exports: [ToolApprovalsService],
})
export class ToolApprovalsModule {
  /**
   * The worker side: the executors of every kb tool and the approved-calls consumer, with the
   * providers the MCP and widget tools run on (no controllers: nothing is served here).
   */
  static worker(): DynamicModule {
    return {
      module: ToolApprovalsModule,
      imports: [RetrievalModule],
      providers: [
        ParkedCallsRepository,
        TenantsRepository,
        UsersRepository,
        NotificationsRepository,
        NotificationsService,
        ToolApprovalsService,
        AnswerProvider,
        CandidateSuggester,
        DocumentCatalogRepository,
        McpKnowledgeRepository,
        KbToolCatalogue,
        McpToolSettingsRepository,
        McpServersService,
        McpAuditRepository,
        McpAuditService,
        // A parked call runs only while the MCP token that asked for it is still usable.
        McpTokensRepository,
        McpTokensService,
        McpToolRunner,
        // A parked widget call runs only while its key is active.
        WidgetSessionsRepository,
        WidgetKeysRepository,
        WidgetToolsService,
        ApprovedCallsWorker,
      ],
    };
  }
}
