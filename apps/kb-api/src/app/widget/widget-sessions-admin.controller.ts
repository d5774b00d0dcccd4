import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { ListWidgetSessionsQueryDto } from './dto/widget-keys.dto';
import { SessionIdPipe } from './session-id.pipe';
import { WidgetSessionsAdminService } from './widget-sessions-admin.service';

const sessionId = new SessionIdPipe();

/** /api/admin/widget-sessions: `can:viewWidgetSessions` (admin, super-admin), read-only, in the active tenant. */
@Controller('api/admin/widget-sessions')
@Can('viewWidgetSessions')
export class WidgetSessionsAdminController {
  constructor(private readonly sessions: WidgetSessionsAdminService) {}

  @Get()
  list(@Query() q: ListWidgetSessionsQueryDto, @Req() req: KbRequest) {
    return this.sessions.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  async show(@Param('id', sessionId) id: string, @Req() req: KbRequest) {
    return { data: await this.sessions.show(req.kbPrincipal!.tenantId, id) };
  }

  @Get(':id/replay')
  replay(@Param('id', sessionId) id: string, @Req() req: KbRequest) {
    return this.sessions.replay(req.kbPrincipal!.tenantId, id);
  }
}
