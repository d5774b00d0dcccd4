import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ListContentGapsQueryDto, ResolveContentGapDto } from './content-gaps.dto';
import { ContentGapsService } from './content-gaps.service';
import { ApiExtraModels, ApiOkResponse, ApiParam, getSchemaPath } from '@nestjs/swagger';
import { ApiData, ApiNotFound } from '../../api-docs';
import { MAX_PER_PAGE } from '../../admin/pagination';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { ContentGapDto, ResolvedContentGapDto } from '../knowledge-responses.dto';

/** /api/admin/kb/content-gaps: refused or low-confidence questions, grouped, until resolved. */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb/content-gaps')
@RequireRole(...G1_ROLES)
export class ContentGapsController {
  constructor(private readonly gaps: ContentGapsService) {}

  @Get()
  @ApiG1Operation(
    'Questions the knowledge base could not answer well, grouped by normalised question, most asked first',
    "Chat log rows of the last `days` days refused (except by the guardrails) or answered below the analysis settings' `low_confidence_threshold`. A resolved gap hides what was asked up to its resolution.",
  )
  @ApiExtraModels(ContentGapDto)
  @ApiOkResponse({
    description: 'A page, with the window and threshold it used',
    schema: {
      type: 'object',
      required: ['data', 'current_page', 'per_page', 'total', 'last_page', 'days', 'low_confidence_threshold'],
      properties: {
        data: { type: 'array', items: { $ref: getSchemaPath(ContentGapDto) } },
        current_page: { type: 'integer', minimum: 1 },
        per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE },
        total: { type: 'integer', minimum: 0 },
        last_page: { type: 'integer', minimum: 1 },
        days: { type: 'integer' },
        low_confidence_threshold: { type: 'integer' },
      },
    },
  })
  @ApiKnowledgeValidationFailed()
  list(@Query() q: ListContentGapsQueryDto, @Req() req: KbRequest) {
    return this.gaps.list(req.kbPrincipal!.tenantId, q);
  }

  @Post(':id/resolve')
  @ApiG1Operation('Marks an open gap handled')
  @ApiParam({ name: 'id', description: 'Content gap id: md5 of the normalised question', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } })
  @ApiData(ResolvedContentGapDto, { description: 'Resolved' })
  @ApiNotFound('content gap')
  @ApiKnowledgeValidationFailed()
  @HttpCode(200)
  resolve(@Param('id') id: string, @Body() body: ResolveContentGapDto, @Req() req: KbRequest) {
    return this.gaps.resolve(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, id, body.note ?? null);
  }
}
