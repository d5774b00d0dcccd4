import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { RangeQueryDto } from '../range-query.dto';
import { RequirePermission, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ComputeInsightsDto } from './insights.dto';
import { InsightsService } from './insights.service';

/** /api/admin/insights behind G1; computing a snapshot also needs commands.destructive. */
@Controller('api/admin/insights')
@RequireRole(...G1_ROLES)
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  /** The latest snapshot; `data: null` until one was computed. */
  @Get()
  async latest(@Req() req: KbRequest) {
    return { data: await this.insights.latest(req.kbPrincipal!.tenantId) };
  }

  @Get('history')
  history(@Query() q: RangeQueryDto, @Req() req: KbRequest) {
    return this.insights.history(req.kbPrincipal!.tenantId, q);
  }

  @Post('compute')
  @HttpCode(201)
  @RequirePermission('commands.destructive')
  async compute(@Body() body: ComputeInsightsDto, @Req() req: KbRequest) {
    return { data: await this.insights.compute(req.kbPrincipal!, body) };
  }
}
