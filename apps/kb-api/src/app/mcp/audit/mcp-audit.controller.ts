import { Controller, Get, Query, Req } from '@nestjs/common';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { McpAuditQueryDto } from './mcp-audit.dto';
import { McpAuditService } from './mcp-audit.service';

/** The active tenant's tools/call audit (`can:viewMcpAudit`). */
@Controller('api/admin/mcp-tool-call-audit')
@Can('viewMcpAudit')
export class McpAuditController {
  constructor(private readonly audit: McpAuditService) {}

  @Get()
  list(@Query() q: McpAuditQueryDto, @Req() req: KbRequest) {
    return this.audit.list(req.kbPrincipal!.tenantId, q);
  }
}
