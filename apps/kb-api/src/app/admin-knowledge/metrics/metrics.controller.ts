import { Controller, Get, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { TimeseriesQueryDto } from './metrics.dto';
import { MetricsService } from './metrics.service';

export const DEFAULT_SERIES_DAYS = 14;

/** /api/admin/metrics/*: the admin dashboard. */
@Controller('api/admin/metrics')
@RequireRole(...G1_ROLES)
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('overview')
  overview(@Req() req: KbRequest) {
    return this.metrics.overview(req.kbPrincipal!.tenantId);
  }

  @Get('health')
  health() {
    return this.metrics.health();
  }

  @Get('timeseries')
  timeseries(@Query() q: TimeseriesQueryDto, @Req() req: KbRequest) {
    return this.metrics.timeseries(req.kbPrincipal!.tenantId, q.metric, q.days ?? DEFAULT_SERIES_DAYS);
  }
}
