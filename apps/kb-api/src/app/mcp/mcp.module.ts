import { Module } from '@nestjs/common';
import { KbAuthModule } from '../auth/auth.module';
import { ChatModule } from '../chat/chat.module';
import { DocumentsModule } from '../documents/documents.module';
import { IdentityLinksModule } from '../identity-links/identity-links.module';
import { PromotionModule } from '../promotion/promotion.module';
import { ToolApprovalsModule } from '../tool-approvals/tool-approvals.module';
import { McpAuditController } from './audit/mcp-audit.controller';
import { McpAuditRepository } from './audit/mcp-audit.repository';
import { McpAuditService } from './audit/mcp-audit.service';
import { McpAuthGuard } from './server/mcp-auth.guard';
import { McpIamTokenStrategy } from './server/mcp-iam-token.strategy';
import { McpTokenStrategy } from './server/mcp-token.strategy';
import { McpController } from './server/mcp.controller';
import { McpToolRunner } from './server/mcp-tool-runner';
import { McpParkedCallsController } from './server/parked-calls.controller';
import { ProtectedResourceController } from './server/protected-resource.controller';
import { McpServersController } from './servers/mcp-servers.controller';
import { McpServersService } from './servers/mcp-servers.service';
import { McpToolSettingsRepository } from './servers/mcp-tool-settings.repository';
import { McpTokensController } from './tokens/mcp-tokens.controller';
import { McpTokensRepository } from './tokens/mcp-tokens.repository';
import { McpTokensService } from './tokens/mcp-tokens.service';
import { KbToolCatalogue } from './tools/kb-tool-catalogue';
import { McpKnowledgeRepository } from './tools/mcp-knowledge.repository';

/** The MCP server at /mcp/kb with tenant MCP tokens and iam tokens, its RFC 9728 metadata, its admin routes and the tool-call audit. */
@Module({
  imports: [KbAuthModule, ChatModule, DocumentsModule, PromotionModule, IdentityLinksModule, ToolApprovalsModule],
  controllers: [McpController, McpParkedCallsController, McpTokensController, McpServersController, McpAuditController, ProtectedResourceController],
  providers: [
    McpKnowledgeRepository,
    KbToolCatalogue,
    McpTokensRepository,
    McpTokensService,
    McpToolSettingsRepository,
    McpServersService,
    McpAuditRepository,
    McpAuditService,
    McpToolRunner,
    McpTokenStrategy,
    McpIamTokenStrategy,
    McpAuthGuard,
  ],
})
export class KbMcpModule {}
