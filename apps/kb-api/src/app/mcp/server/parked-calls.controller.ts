import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { Public } from '../../auth/gates';
import { KbError } from '../../errors/kb-errors';
import { ToolApprovalsService } from '../../tool-approvals/tool-approvals.service';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpRequest } from './mcp-caller';
import { principalOf } from './mcp-tool-runner';

/**
 * How an MCP tool call parked for approval ended, for its caller: the same credentials as /mcp/kb,
 * and only the caller's own calls (another caller's, or another tenant's, is a 404). The answer is
 * the final result once the call ran, or a clear refusal after a rejection or an expiry.
 */
@Controller('mcp/kb/calls')
@Public()
export class McpParkedCallsController {
  constructor(private readonly approvals: ToolApprovalsService) {}

  @Get(':approvalId')
  @UseGuards(McpAuthGuard)
  async show(@Param('approvalId') approvalId: string, @Req() req: McpRequest) {
    const caller = req.mcpCaller!;
    const call = await this.approvals.status(caller.tenantId, principalOf(caller), approvalId);
    if (!call) throw new KbError(404, 'not_found', 'No parked tool call of yours has this id.');
    return { data: call };
  }
}
