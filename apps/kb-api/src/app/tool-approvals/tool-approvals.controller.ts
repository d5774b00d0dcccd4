import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RequirePermission, UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { APPROVE_TOOL_PERMISSION, ToolApprovalsService } from './tool-approvals.service';

/**
 * The approve and reject links of a `kb_tool_call_awaiting_approval` notification: a user of the
 * call's tenant holding the approving permission decides with the single-use token. The actor is
 * the signed-in user, never a value from the request.
 */
@Controller('api/kb/tool-approvals')
export class ToolApprovalsController {
  constructor(private readonly approvals: ToolApprovalsService) {}

  /** 202: approved, the call runs once in the worker; its caller reads the result. */
  @Post(':token/approve')
  @UserOnly()
  @RequirePermission(APPROVE_TOOL_PERMISSION)
  @HttpCode(202)
  approve(@Param('token') token: string, @Req() req: KbRequest) {
    return this.approvals.decide(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId!, token, 'approve');
  }

  @Post(':token/reject')
  @UserOnly()
  @RequirePermission(APPROVE_TOOL_PERMISSION)
  @HttpCode(200)
  async reject(@Param('token') token: string, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const decided = await this.approvals.decide(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId!, token, 'reject');
    res.status(200);
    return decided;
  }
}
