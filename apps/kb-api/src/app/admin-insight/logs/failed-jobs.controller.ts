import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { FailedJobsQueryDto, FailedJobTargetDto } from './failed-jobs.dto';
import { FailedJobsService } from './failed-jobs.service';

/** /api/admin/logs/failed-jobs behind G1: the active tenant's failed BullMQ jobs. */
@Controller('api/admin/logs/failed-jobs')
@RequireRole(...G1_ROLES)
export class FailedJobsController {
  constructor(private readonly jobs: FailedJobsService) {}

  @Get()
  list(@Query() q: FailedJobsQueryDto, @Req() req: KbRequest) {
    return this.jobs.list(req.kbPrincipal!.tenantId, q);
  }

  @Post(':id/retry')
  @HttpCode(202)
  async retry(@Param('id') id: string, @Query() q: FailedJobTargetDto, @Req() req: KbRequest) {
    return { data: await this.jobs.retry(req.kbPrincipal!.tenantId, id, q.queue) };
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(
    @Param('id') id: string,
    @Query() q: FailedJobTargetDto,
    @Req() req: KbRequest,
  ): Promise<void> {
    await this.jobs.remove(req.kbPrincipal!.tenantId, id, q.queue);
  }
}
