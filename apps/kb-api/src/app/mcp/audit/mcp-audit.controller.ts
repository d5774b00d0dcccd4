import { Controller, Get, Query, Req } from '@nestjs/common';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { McpAuditQueryDto } from './mcp-audit.dto';
import { McpAuditService } from './mcp-audit.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiGuarded, ApiPage, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { McpToolCallAuditDto } from '../mcp-responses.dto';

/** The active tenant's tools/call audit (`can:viewMcpAudit`). */
@ApiTags('MCP')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/mcp-tool-call-audit')
@Can('viewMcpAudit')
export class McpAuditController {
  constructor(private readonly audit: McpAuditService) {}

  @Get()
  @ApiOperation({ summary: "The tenant's tools/call audit, newest first (`can:viewMcpAudit`)" })
  @ApiPage(McpToolCallAuditDto)
  @ApiValidationFailed()
  list(@Query() q: McpAuditQueryDto, @Req() req: KbRequest) {
    return this.audit.list(req.kbPrincipal!.tenantId, q);
  }
}
