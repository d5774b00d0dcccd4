import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiPage, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../../api-docs';
import { RangeQueryDto } from '../range-query.dto';
import { RequirePermission, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ComputeInsightsDto } from './insights.dto';
import { InsightHistoryEntryDto, InsightSnapshotDto } from './insights-responses.dto';
import { INSIGHT_DEFAULT_DAYS, InsightsService } from './insights.service';

/** /api/admin/insights behind G1; computing a snapshot also needs commands.destructive. */
@ApiTags('Admin insight')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/insights')
@RequireRole(...G1_ROLES)
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  /** The latest snapshot; `data: null` until one was computed. */
  @Get()
  @ApiOperation({ summary: 'The latest insight snapshot (`data: null` before the first compute)', description: 'Gate G1.' })
  @ApiExtraModels(InsightSnapshotDto)
  @ApiOkResponse({
    description: 'Snapshot',
    schema: {
      type: 'object',
      required: ['data'],
      properties: { data: { oneOf: [{ $ref: getSchemaPath(InsightSnapshotDto) }, { type: 'null' }] } },
    },
  })
  async latest(@Req() req: KbRequest) {
    return { data: await this.insights.latest(req.kbPrincipal!.tenantId) };
  }

  @Get('history')
  @ApiOperation({ summary: 'Stored snapshots, newest first, each with its totals only', description: 'Gate G1.' })
  @ApiPage(InsightHistoryEntryDto)
  @ApiValidationFailed()
  history(@Query() q: RangeQueryDto, @Req() req: KbRequest) {
    return this.insights.history(req.kbPrincipal!.tenantId, q);
  }

  @Post('compute')
  @HttpCode(201)
  @RequirePermission('commands.destructive')
  @ApiOperation({
    summary: 'Computes and stores a snapshot over a period',
    description: `G1 and permission commands.destructive. Default period: the last ${INSIGHT_DEFAULT_DAYS} days up to now.`,
  })
  @ApiBody({ type: ComputeInsightsDto, required: false })
  @ApiData(InsightSnapshotDto, { status: 201, description: 'Stored snapshot' })
  @ApiValidationFailed('Malformed date, or from after to')
  @ApiResponse({ status: 403, description: 'Not G1, or without commands.destructive', type: ErrorBody })
  async compute(@Body() body: ComputeInsightsDto, @Req() req: KbRequest) {
    return { data: await this.insights.compute(req.kbPrincipal!, body) };
  }
}
