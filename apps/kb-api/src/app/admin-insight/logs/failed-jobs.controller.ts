import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiPage, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../../api-docs';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { FailedJobsQueryDto, FailedJobTargetDto } from './failed-jobs.dto';
import { FailedJobDto, RequeuedJobDto } from './logs-responses.dto';
import { FailedJobsService } from './failed-jobs.service';

const ApiJobId = () => ApiParam({ name: 'id', description: 'BullMQ job id', schema: { type: 'string', maxLength: 200 } });
const ApiJobNotFound = () => ApiResponse({ status: 404, description: "Unknown, not failed, or another tenant's job", type: ErrorBody });

/** /api/admin/logs/failed-jobs behind G1: the active tenant's failed BullMQ jobs. */
@ApiTags('Admin insight')
@ApiGuarded()
@ApiTenantHeader()
@ApiValidationFailed()
@Controller('api/admin/logs/failed-jobs')
@RequireRole(...G1_ROLES)
export class FailedJobsController {
  constructor(private readonly jobs: FailedJobsService) {}

  @Get()
  @ApiOperation({
    summary: "Failed BullMQ jobs of kb-api's queues that belong to the active tenant, latest failure first",
    description: 'Gate G1. `search`: case-insensitive contains over job name, id and failure reason.',
  })
  @ApiPage(FailedJobDto)
  list(@Query() q: FailedJobsQueryDto, @Req() req: KbRequest) {
    return this.jobs.list(req.kbPrincipal!.tenantId, q);
  }

  @Post(':id/retry')
  @HttpCode(202)
  @ApiOperation({ summary: 'Puts a failed job back in its queue with fresh attempts', description: 'Gate G1.' })
  @ApiJobId()
  @ApiData(RequeuedJobDto, { status: 202, description: 'Queued again' })
  @ApiJobNotFound()
  async retry(@Param('id') id: string, @Query() q: FailedJobTargetDto, @Req() req: KbRequest) {
    return { data: await this.jobs.retry(req.kbPrincipal!.tenantId, id, q.queue) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Removes a failed job', description: 'Gate G1.' })
  @ApiJobId()
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiJobNotFound()
  async remove(
    @Param('id') id: string,
    @Query() q: FailedJobTargetDto,
    @Req() req: KbRequest,
  ): Promise<void> {
    await this.jobs.remove(req.kbPrincipal!.tenantId, id, q.queue);
  }
}
