import { Body, Controller, HttpCode, HttpStatus, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RequirePermission, UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { KbValidationError } from '../errors/kb-errors';
import { CandidateSuggester } from './candidate-suggester';
import { ApproveDto, CandidatesDto, PromoteDto, RejectDto, SuggestDto } from './dto/promotion.dto';
import { checkDraft } from './frontmatter';
import { Decider, PROMOTE_PERMISSION, PromotionService } from './promotion.service';

const decider = (req: KbRequest, actor: string | undefined): Decider => ({
  tenantId: req.kbPrincipal!.tenantId,
  userId: req.kbPrincipal!.userId!,
  via: req.kbPrincipal!.kind,
  actor,
});

function tokenOf(body: ApproveDto, query: string | undefined): string {
  const token = body.token ?? query;
  if (typeof token !== 'string' || token === '') throw new KbValidationError({ token: ['The approval token is required.'] });
  return token;
}

/** The human-gated promotion pipeline; nothing reaches canonical storage before an approval. */
@Controller('api/kb/promotion')
export class PromotionController {
  constructor(
    private readonly promotion: PromotionService,
    private readonly suggester: CandidateSuggester,
  ) {}

  /** Writes nothing: the model only proposes what could be written. */
  @Post('suggest')
  @HttpCode(200)
  async suggest(@Body() body: SuggestDto) {
    this.promotion.assertEnabled();
    return { candidates: await this.suggester.suggest(body.transcript, body.project_key, body.existing_slugs ?? []) };
  }

  /** Not gated by the promotion switch: checking a draft writes nothing. */
  @Post('candidates')
  @HttpCode(200)
  candidates(@Body() body: CandidatesDto, @Res({ passthrough: true }) res: Response) {
    const check = checkDraft(body.markdown);
    if (check.valid) return { valid: true, parsed: check.parsed };
    res.status(422);
    return { valid: false, errors: check.errors };
  }

  @Post('promote')
  @HttpCode(202)
  promote(@Body() body: PromoteDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return this.promotion.promote(p.tenantId, p.userId, body);
  }

  /** 200 when written and dispatched; 202 with the failed step when the write did not succeed. */
  @Post(':approvalId/approve')
  @UserOnly()
  @RequirePermission(PROMOTE_PERMISSION)
  async approve(@Param('approvalId') approvalId: string, @Body() body: ApproveDto, @Query('token') token: string | undefined, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    this.promotion.assertEnabled();
    const outcome = await this.promotion.approve(approvalId, tokenOf(body, token), decider(req, body.actor));
    res.status(outcome.accepted ? HttpStatus.OK : HttpStatus.ACCEPTED);
    return outcome.body;
  }

  @Post(':approvalId/reject')
  @HttpCode(200)
  @UserOnly()
  @RequirePermission(PROMOTE_PERMISSION)
  reject(@Param('approvalId') approvalId: string, @Body() body: RejectDto, @Query('token') token: string | undefined, @Req() req: KbRequest) {
    this.promotion.assertEnabled();
    return this.promotion.reject(approvalId, tokenOf(body, token), decider(req, body.actor), body.reason);
  }
}

