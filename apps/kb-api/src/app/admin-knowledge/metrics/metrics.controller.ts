import { Controller, Get, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { TimeseriesQueryDto } from './metrics.dto';
import { MetricsService } from './metrics.service';
import { ApiOkResponse } from '@nestjs/swagger';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { MetricsHealthDto, MetricsOverviewDto, MetricsTimeseriesDto } from '../knowledge-responses.dto';

export const DEFAULT_SERIES_DAYS = 14;

/** /api/admin/metrics/*: the admin dashboard. */
@ApiKnowledgeAdmin()
@Controller('api/admin/metrics')
@RequireRole(...G1_ROLES)
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('overview')
  @ApiG1Operation(
    'Dashboard counts of the active tenant',
    'Documents (by status), chunks, projects, users (home tenant), chats and refusal rate over the last 24 hours and 7 days and the mean confidence of answered chats over 7 days (kb_chat_logs), the ingest queue (shared by every tenant) and chunk feedback counts.',
  )
  @ApiOkResponse({ description: 'The overview', type: MetricsOverviewDto })
  overview(@Req() req: KbRequest) {
    return this.metrics.overview(req.kbPrincipal!.tenantId);
  }

  @Get('health')
  @ApiG1Operation(
    'Health of the database, Redis, the ingest queue and its workers',
    'Each check is `ok` or `degraded` with its latency (2 s limit each); `worker` is degraded when no worker is connected to the ingest queue, `queue` when more than 1000 jobs wait. Always 200.',
  )
  @ApiOkResponse({ description: 'Checks', type: MetricsHealthDto })
  health() {
    return this.metrics.health();
  }

  @Get('timeseries')
  @ApiG1Operation(
    'Daily counts over the last `days` UTC days (today last)',
    '`chats`: chat log rows; `refusals`: those with a refusal reason; `ingested`: documents whose current version was indexed that day. Days without events count 0.',
  )
  @ApiOkResponse({ description: 'Buckets', type: MetricsTimeseriesDto })
  @ApiKnowledgeValidationFailed()
  timeseries(@Query() q: TimeseriesQueryDto, @Req() req: KbRequest) {
    return this.metrics.timeseries(req.kbPrincipal!.tenantId, q.metric, q.days ?? DEFAULT_SERIES_DAYS);
  }
}
