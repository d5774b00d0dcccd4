import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { Public } from '../../auth/gates';
import { KbError } from '../../errors/kb-errors';
import { ToolApprovalsService } from '../../tool-approvals/tool-approvals.service';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpRequest } from './mcp-caller';
import { principalOf } from './mcp-tool-runner';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ErrorBody } from '../../api-docs';
import { ParkedToolCallDto } from '../../tool-approvals/dto/parked-tool-call.dto';

/**
 * How an MCP tool call parked for approval ended, for its caller: the same credentials as /mcp/kb,
 * and only the caller's own calls (another caller's, or another tenant's, is a 404). The answer is
 * the final result once the call ran, or a clear refusal after a rejection or an expiry.
 */
@ApiTags('MCP')
@Controller('mcp/kb/calls')
@Public()
export class McpParkedCallsController {
  constructor(private readonly approvals: ToolApprovalsService) {}

  @Get(':approvalId')
  @ApiOperation({
    summary: 'How a tools/call parked for human approval ended, for its caller (the same credentials as /mcp/kb)',
    description: [
      'A tools/call of a tool in `hitl.destructive_tools` (with `hitl.enabled`) answers a tool error `approval_required` with `approval_id` and `status_path`;',
      "the tenant's holders of `commands.destructive` get a `kb_tool_call_awaiting_approval` notification with the single-use token and the approve and reject links.",
      "This route answers `pending`, `running`, then `succeeded` with the tool's result (after the output guardrails and the indirect-injection screen),",
      "or `failed`, `rejected`, `expired` with `result.error` (`approval_rejected`, `approval_expired`). Only the caller's own calls: another caller's or tenant's is a 404.",
    ].join(' '),
  })
  @ApiParam({ name: 'approvalId', schema: { type: 'string', format: 'uuid' } })
  @ApiData(ParkedToolCallDto, { description: 'The parked call' })
  @ApiResponse({ status: 401, description: 'No or an invalid credential', type: ErrorBody })
  @ApiResponse({ status: 404, description: 'Not a parked call of this caller `{error: "not_found"}`', type: ErrorBody })
  @UseGuards(McpAuthGuard)
  async show(@Param('approvalId') approvalId: string, @Req() req: McpRequest) {
    const caller = req.mcpCaller!;
    const call = await this.approvals.status(caller.tenantId, principalOf(caller), approvalId);
    if (!call) throw new KbError(404, 'not_found', 'No parked tool call of yours has this id.');
    return { data: call };
  }
}
