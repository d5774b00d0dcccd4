import { Injectable } from '@nestjs/common';
import { Page, pageWindow, toPage } from '../admin/pagination';
import { KbError } from '../errors/kb-errors';
import { ListWidgetSessionsQueryDto } from './dto/widget-keys.dto';
import { WidgetSessionRow, WidgetSessionsRepository } from './widget-sessions.repository';
import { presentSteps } from './widget-sessions.service';

/** A session as admins see it: whether it had an identity, never the identity itself. */
function present(s: WidgetSessionRow & { key_label: string }) {
  return {
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
  };
}
type AdminSessionView = ReturnType<typeof present>;

/** Read-only review of widget sessions in the active tenant. */
@Injectable()
export class WidgetSessionsAdminService {
  constructor(private readonly sessions: WidgetSessionsRepository) {}

  async list(tenantId: string, q: ListWidgetSessionsQueryDto): Promise<Page<AdminSessionView>> {
    const w = pageWindow(q);
    const { rows, total } = await this.sessions.page(tenantId, { status: q.status, keyId: q.key }, w.perPage, w.offset);
    return toPage(rows.map(present), total, w);
  }

  async show(tenantId: string, id: string): Promise<AdminSessionView> {
    return present(await this.find(tenantId, id));
  }

  async replay(tenantId: string, id: string) {
    const session = await this.find(tenantId, id);
    return { session: present(session), steps: presentSteps(await this.sessions.steps(session.id)) };
  }

  private async find(tenantId: string, id: string) {
    const session = await this.sessions.findInTenant(tenantId, id);
    if (!session) throw new KbError(404, 'not_found', 'Widget session not found.');
    return session;
  }
}
