import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiGuarded, ApiPage, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { pageWindow } from '../../admin/pagination';
import { G1_ROLES } from '../../identity/rbac';
import { EventLogsRepository } from './event-logs.repository';
import { ActivityLogQueryDto, ApplicationLogQueryDto, CanonicalAuditQueryDto } from './logs.dto';
import { ActivityLogEntryDto, ApplicationLogEntryDto, CanonicalAuditEntryDto } from './logs-responses.dto';

/** The read-only logs under /api/admin/logs behind G1, newest first, in the active tenant. */
@ApiTags('Admin insight')
@ApiGuarded()
@ApiTenantHeader()
@ApiValidationFailed()
@Controller('api/admin/logs')
@RequireRole(...G1_ROLES)
export class EventLogsController {
  constructor(private readonly logs: EventLogsRepository) {}

  @Get('canonical-audit')
  @ApiOperation({
    summary: 'The promotion audit (requests, approvals, rejections, denials, dispatch failures), newest first',
    description: 'Gate G1. `search`: case-insensitive contains over actor label, source path and title.',
  })
  @ApiPage(CanonicalAuditEntryDto)
  canonicalAudit(@Query() q: CanonicalAuditQueryDto, @Req() req: KbRequest) {
    return this.logs.canonicalAudit(req.kbPrincipal!.tenantId, q, pageWindow(q));
  }

  @Get('application')
  @ApiOperation({
    summary:
      "Server errors (5xx; 502–504 as warnings) of the tenant's requests: route pattern, status, error class and code, request id; never bodies",
    description: 'Gate G1. `search`: case-insensitive contains over route, error class, code and request id.',
  })
  @ApiPage(ApplicationLogEntryDto)
  application(@Query() q: ApplicationLogQueryDto, @Req() req: KbRequest) {
    return this.logs.application(req.kbPrincipal!.tenantId, q, pageWindow(q));
  }

  @Get('activity')
  @ApiOperation({
    summary:
      'Every mutation under /api/admin and /api/system-admin that passed the gates, successful or failed: actor, method, route pattern, status, target id; never bodies',
    description: 'Gate G1. `search`: case-insensitive contains over route, target id and actor e-mail.',
  })
  @ApiPage(ActivityLogEntryDto)
  activity(@Query() q: ActivityLogQueryDto, @Req() req: KbRequest) {
    return this.logs.activity(req.kbPrincipal!.tenantId, q, pageWindow(q));
  }
}
