import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { pageWindow, toPage } from '../admin/pagination';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { KbError } from '../errors/kb-errors';
import { ListWidgetSessionsQueryDto } from './dto/widget-keys.dto';
import { SessionIdPipe } from './session-id.pipe';
import { WidgetSessionRow, WidgetSessionsRepository } from './widget-sessions.repository';
import { presentSteps } from './widget-sessions.service';

const sessionId = new SessionIdPipe();
const present = (s: WidgetSessionRow & { key_label: string }) => ({
  id: s.id,
  key_id: Number(s.key_id),
  key_label: s.key_label,
  project_key: s.project_key,
  status: s.status,
  origin: s.origin,
  page_url: s.page_url,
  step_count: s.step_count,
  has_identity: s.identity !== null,
  created_at: s.created_at,
  updated_at: s.updated_at,
});

/** /api/admin/widget-sessions: `can:viewWidgetSessions` (admin, super-admin), read-only, in the active tenant. */
@Controller('api/admin/widget-sessions')
@Can('viewWidgetSessions')
export class WidgetSessionsAdminController {
  constructor(private readonly sessions: WidgetSessionsRepository) {}

  @Get()
  async list(@Query() q: ListWidgetSessionsQueryDto, @Req() req: KbRequest) {
    const w = pageWindow(q);
    const { rows, total } = await this.sessions.page(req.kbPrincipal!.tenantId, { status: q.status, keyId: q.key }, w.perPage, w.offset);
    return toPage(rows.map(present), total, w);
  }

  @Get(':id')
  async show(@Param('id', sessionId) id: string, @Req() req: KbRequest) {
    return { data: present(await this.find(req.kbPrincipal!.tenantId, id)) };
  }

  @Get(':id/replay')
  async replay(@Param('id', sessionId) id: string, @Req() req: KbRequest) {
    const session = await this.find(req.kbPrincipal!.tenantId, id);
    return { session: present(session), steps: presentSteps(await this.sessions.steps(session.id)) };
  }

  private async find(tenantId: string, id: string) {
    const session = await this.sessions.findInTenant(tenantId, id);
    if (!session) throw new KbError(404, 'not_found', 'Widget session not found.');
    return session;
  }
}
