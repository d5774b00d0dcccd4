import { Controller, Get, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { pageWindow } from '../../admin/pagination';
import { G1_ROLES } from '../../identity/rbac';
import { EventLogsRepository } from './event-logs.repository';
import { ActivityLogQueryDto, ApplicationLogQueryDto, CanonicalAuditQueryDto } from './logs.dto';

/** The read-only logs under /api/admin/logs behind G1, newest first, in the active tenant. */
@Controller('api/admin/logs')
@RequireRole(...G1_ROLES)
export class EventLogsController {
  constructor(private readonly logs: EventLogsRepository) {}

  @Get('canonical-audit')
  canonicalAudit(@Query() q: CanonicalAuditQueryDto, @Req() req: KbRequest) {
    return this.logs.canonicalAudit(req.kbPrincipal!.tenantId, q, pageWindow(q));
  }

  @Get('application')
  application(@Query() q: ApplicationLogQueryDto, @Req() req: KbRequest) {
    return this.logs.application(req.kbPrincipal!.tenantId, q, pageWindow(q));
  }

  @Get('activity')
  activity(@Query() q: ActivityLogQueryDto, @Req() req: KbRequest) {
    return this.logs.activity(req.kbPrincipal!.tenantId, q, pageWindow(q));
  }
}
