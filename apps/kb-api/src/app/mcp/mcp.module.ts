import { Module } from '@nestjs/common';
import { KbAuthModule } from '../auth/auth.module';
import { AnswerProvider } from '../chat/answer-provider';
import { ChatModule } from '../chat/chat.module';
import { DocumentCatalogRepository } from '../documents/document-catalog.repository';
import { CandidateSuggester } from '../promotion/candidate-suggester';
import { McpAuditController } from './audit/mcp-audit.controller';
import { McpAuditRepository } from './audit/mcp-audit.repository';
import { McpAuditService } from './audit/mcp-audit.service';
import { McpAuthGuard } from './server/mcp-auth.guard';
import { McpController } from './server/mcp.controller';
import { McpToolRunner } from './server/mcp-tool-runner';
import { McpServersController } from './servers/mcp-servers.controller';
import { McpServersService } from './servers/mcp-servers.service';
import { McpToolSettingsRepository } from './servers/mcp-tool-settings.repository';
import { McpTokensController } from './tokens/mcp-tokens.controller';
import { McpTokensRepository } from './tokens/mcp-tokens.repository';
import { McpTokensService } from './tokens/mcp-tokens.service';
import { KbToolCatalogue } from './tools/kb-tool-catalogue';
import { McpKnowledgeRepository } from './tools/mcp-knowledge.repository';

/**
 * The MCP server at /mcp/kb with tenant MCP tokens, its admin routes and the tool-call audit.
 * The document catalogue and the promotion suggester are provided here as well: their modules do
 * not export them, and both are stateless readers.
 */
@Module({
  imports: [KbAuthModule, ChatModule],
  controllers: [McpController, McpTokensController, McpServersController, McpAuditController],
  providers: [
    DocumentCatalogRepository,
    AnswerProvider,
    CandidateSuggester,
    McpKnowledgeRepository,
    KbToolCatalogue,
    McpTokensRepository,
    McpTokensService,
    McpToolSettingsRepository,
    McpServersService,
    McpAuditRepository,
    McpAuditService,
    McpToolRunner,
    McpAuthGuard,
  ],
})
export class KbMcpModule {}
