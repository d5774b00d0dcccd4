import { applyDecorators, Body, Controller, HttpCode, HttpStatus, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiValidationFailed, ErrorBody, MessageBody, ValidationErrorBody } from '../api-docs';
import { RequirePermission, UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { KbValidationError } from '../errors/kb-errors';
import { CandidateSuggester } from './candidate-suggester';
import { ApproveDto, CandidatesDto, PromoteDto, RejectDto, SuggestDto } from './dto/promotion.dto';
import {
  DraftRefusalDto,
  InvalidDraftDto,
  PausedPromotionDto,
  PromotionAcceptedDto,
  PromotionFailedDto,
  PromotionRejectedDto,
  PromotionSuggestionsDto,
  ValidDraftDto,
} from './dto/promotion-views.dto';
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

/** What approving and rejecting a paused run share in the document: the id, the token, the refusals. */
const ApiPromotionDecision = () =>
  applyDecorators(
    ApiParam({ name: 'approvalId', description: 'The approval id from the promote answer', schema: { type: 'string' } }),
    ApiQuery({ name: 'token', required: false, description: 'The approval token, when not sent in the body', schema: { type: 'string' } }),
    ApiResponse({
      status: 403,
      description:
        "Without `kb.promote.any` `{message}`; a wrong, spent or expired token, an unknown id, another tenant's run or a run already decided `{error: \"forbidden\", message}`",
      type: ErrorBody,
    }),
    ApiValidationFailed('No token in the body or the query `{message, errors: {token}}`'),
    ApiResponse({ status: 503, description: 'Promotion is switched off (`KB_PROMOTION_ENABLED`) `{error: "promotion_disabled", message}`', type: ErrorBody }),
  );
/** The human-gated promotion pipeline; nothing reaches canonical storage before an approval. */
@ApiTags('Promotion')
@ApiResponse({ status: 401, description: 'Guest `{message: "Unauthenticated."}`', type: MessageBody })
@ApiExtraModels(InvalidDraftDto, DraftRefusalDto, ValidationErrorBody)
@Controller('api/kb/promotion')
export class PromotionController {
  constructor(
    private readonly promotion: PromotionService,
    private readonly suggester: CandidateSuggester,
  ) {}

  /** Writes nothing: the model only proposes what could be written. */
  @Post('suggest')
  @ApiOperation({ summary: 'Proposes knowledge-base documents from a transcript with the configured model; writes nothing' })
  @ApiOkResponse({ description: 'Well-formed new candidates only', type: PromotionSuggestionsDto })
  @ApiValidationFailed('Validation failure `{message, errors}`')
  @ApiResponse({ status: 502, description: 'The model failed `{error: "llm_unavailable"}` (504 on its timeout)', type: ErrorBody })
  @ApiResponse({ status: 503, description: 'Promotion switched off `promotion_disabled`, or no model configured `llm_not_configured`', type: ErrorBody })
  @HttpCode(200)
  async suggest(@Body() body: SuggestDto) {
    this.promotion.assertEnabled();
    return { candidates: await this.suggester.suggest(body.transcript, body.project_key, body.existing_slugs ?? []) };
  }

  /** Not gated by the promotion switch: checking a draft writes nothing. */
  @Post('candidates')
  @ApiOperation({ summary: 'Checks a markdown draft and its frontmatter; writes nothing and works while promotion is off' })
  @ApiOkResponse({ description: 'Valid', type: ValidDraftDto })
  @ApiResponse({
    status: 422,
    description: 'Invalid draft `{valid: false, errors}` keyed by field; a body over the limit answers the validation shape',
    schema: { oneOf: [{ $ref: getSchemaPath(InvalidDraftDto) }, { $ref: getSchemaPath(ValidationErrorBody) }] },
  })
  @HttpCode(200)
  candidates(@Body() body: CandidatesDto, @Res({ passthrough: true }) res: Response) {
    const check = checkDraft(body.markdown);
    if (check.valid) return { valid: true, parsed: check.parsed };
    res.status(422);
    return { valid: false, errors: check.errors };
  }

  @Post('promote')
  @ApiOperation({ summary: 'Validates a draft and pauses it at the human approval gate; nothing is written until approval' })
  @ApiResponse({ status: 202, description: 'Paused; the token appears only here', type: PausedPromotionDto })
  @ApiResponse({
    status: 422,
    description: '`{error: "no_frontmatter" | "invalid_frontmatter", message, errors}`, or the validation shape for the body',
    schema: { oneOf: [{ $ref: getSchemaPath(DraftRefusalDto) }, { $ref: getSchemaPath(ValidationErrorBody) }] },
  })
  @ApiResponse({ status: 503, description: 'Promotion is switched off (`KB_PROMOTION_ENABLED`) `{error: "promotion_disabled", message}`', type: ErrorBody })
  @HttpCode(202)
  promote(@Body() body: PromoteDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return this.promotion.promote(p.tenantId, p.userId, body);
  }

  /** 200 when written and dispatched; 202 with the failed step when the write did not succeed. */
  @Post(':approvalId/approve')
  @ApiOperation({ summary: 'A human with kb.promote.any approves: writes canonical storage and dispatches one IngestDocumentJob, exactly once' })
  @ApiBody({ type: ApproveDto, required: false })
  @ApiOkResponse({ description: 'Written and dispatched', type: PromotionAcceptedDto })
  @ApiResponse({ status: 202, description: 'Claimed, but the storage write failed', type: PromotionFailedDto })
  @ApiPromotionDecision()
  @UserOnly()
  @RequirePermission(PROMOTE_PERMISSION)
  async approve(@Param('approvalId') approvalId: string, @Body() body: ApproveDto, @Query('token') token: string | undefined, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    this.promotion.assertEnabled();
    const outcome = await this.promotion.approve(approvalId, tokenOf(body, token), decider(req, body.actor));
    res.status(outcome.accepted ? HttpStatus.OK : HttpStatus.ACCEPTED);
    return outcome.body;
  }

  @Post(':approvalId/reject')
  @ApiOperation({ summary: 'A human with kb.promote.any rejects: the paused run and its draft are dropped' })
  @ApiBody({ type: RejectDto, required: false })
  @ApiOkResponse({ description: 'Discarded', type: PromotionRejectedDto })
  @ApiPromotionDecision()
  @HttpCode(200)
  @UserOnly()
  @RequirePermission(PROMOTE_PERMISSION)
  reject(@Param('approvalId') approvalId: string, @Body() body: RejectDto, @Query('token') token: string | undefined, @Req() req: KbRequest) {
    this.promotion.assertEnabled();
    return this.promotion.reject(approvalId, tokenOf(body, token), decider(req, body.actor), body.reason);
  }
}

