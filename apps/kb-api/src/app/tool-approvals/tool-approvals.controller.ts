import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ErrorBody, MessageBody } from '../api-docs';
import { RequirePermission, UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { ToolApprovalDecisionDto } from './dto/tool-approval-decision.dto';
import { APPROVE_TOOL_PERMISSION, ToolApprovalsService } from './tool-approvals.service';

/**
 * The approve and reject links of a `kb_tool_call_awaiting_approval` notification: a user of the
 * call's tenant holding the approving permission decides with the single-use token. The actor is
 * the signed-in user, never a value from the request.
 */
@ApiTags('MCP')
@ApiResponse({ status: 401, description: 'Guest `{message: "Unauthenticated."}`', type: MessageBody })
@ApiResponse({ status: 403, description: 'Not allowed by the gate `{message}`', type: MessageBody })
@Controller('api/kb/tool-approvals')
export class ToolApprovalsController {
  constructor(private readonly approvals: ToolApprovalsService) {}

  /** 202: approved, the call runs once in the worker; its caller reads the result. */
  @Post(':token/approve')
  @ApiOperation({
    summary: 'Approves a parked kb tool call (the approve link of its notification); it then runs exactly once in the kb worker',
    description:
      "A user (not an integration token) of the call's tenant holding `commands.destructive`; the actor is the signed-in user. A repeated approve is a no-op 202.",
  })
  @ApiResponse({ status: 202, description: 'Approved `{status: "approved", approval_id, tool, call_status}`', type: ToolApprovalDecisionDto })
  @ApiResponse({ status: 409, description: 'Expired, or rejected before `{error: "decision_failed", status}`', type: ErrorBody })
  @ApiParam({ name: 'token', schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}$' } })
  @ApiResponse({ status: 404, description: 'No parked call of this tenant has this token `{error: "not_found"}`', type: ErrorBody })
  @ApiResponse({ status: 503, description: 'Approvals unavailable `{error: "hitl_unavailable"}`', type: ErrorBody })
  @UserOnly()
  @RequirePermission(APPROVE_TOOL_PERMISSION)
  @HttpCode(202)
  approve(@Param('token') token: string, @Req() req: KbRequest) {
    return this.approvals.decide(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId!, token, 'approve');
  }

  @Post(':token/reject')
  @ApiOperation({
    summary: 'Rejects a parked kb tool call (the reject link of its notification); its caller reads `rejected`',
    description: 'Same gate as approve. A repeated reject answers 200 again.',
  })
  @ApiResponse({ status: 200, description: 'Rejected `{status: "rejected", approval_id, tool, call_status}`', type: ToolApprovalDecisionDto })
  @ApiResponse({ status: 409, description: 'Expired, or approved before `{error: "decision_failed", status}`', type: ErrorBody })
  @ApiParam({ name: 'token', schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}$' } })
  @ApiResponse({ status: 404, description: 'No parked call of this tenant has this token `{error: "not_found"}`', type: ErrorBody })
  @ApiResponse({ status: 503, description: 'Approvals unavailable `{error: "hitl_unavailable"}`', type: ErrorBody })
  @UserOnly()
  @RequirePermission(APPROVE_TOOL_PERMISSION)
  @HttpCode(200)
  async reject(@Param('token') token: string, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const decided = await this.approvals.decide(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId!, token, 'reject');
    res.status(200);
    return decided;
  }
}
