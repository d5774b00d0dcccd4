import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page, PageWindow } from '../../admin/pagination';
import { idText, iso, SqlFilter } from '../sql-filter';
import { FilteredPageRepository } from '../filtered-page.repository';
import { ActivityLogQueryDto, ApplicationLogQueryDto, CanonicalAuditQueryDto } from './logs.dto';

/** The promotion audit, application and activity logs as the admin reads them, by tenant (request-log writes the latter two). */
@Injectable()
export class EventLogsRepository extends FilteredPageRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  canonicalAudit(
    tenantId: string,
    q: CanonicalAuditQueryDto,
    window: PageWindow,
  ): Promise<Page<Record<string, unknown>>> {
    const filter = new SqlFilter('a.tenant_id', tenantId)
      .add('a.action = ?', q.action)
      .add('a.actor_user_id = ?::bigint', q.actor)
      .range('a.created_at', q.from, q.to)
      .search(['a.actor_label', 'p.source_path', 'p.title'], q.search);
    return this.page({
      columns:
        'a.id, a.approval_id, a.action, a.actor_user_id, a.actor_label, a.detail, a.created_at, p.project_key, p.source_path, p.title, p.status AS approval_status',
      from: 'kb_promotion_audit a LEFT JOIN kb_promotion_approvals p ON p.id = a.approval_id AND p.tenant_id = a.tenant_id',
      filter,
      order: 'a.id DESC',
      window,
      map: (r) => ({
        id: String(r['id']),
        approval_id: r['approval_id'],
        action: r['action'],
        actor_user_id: idText(r['actor_user_id']),
        actor_label: r['actor_label'],
        detail: r['detail'],
        approval:
          r['source_path'] === null
            ? null
            : {
                project_key: r['project_key'],
                source_path: r['source_path'],
                title: r['title'],
                status: r['approval_status'],
              },
        created_at: iso(r['created_at']),
      }),
    });
  }

  application(
    tenantId: string,
    q: ApplicationLogQueryDto,
    window: PageWindow,
  ): Promise<Page<Record<string, unknown>>> {
    const filter = new SqlFilter('tenant_id', tenantId)
      .add('level = ?', q.level)
      .add('status = ?', q.status)
      .range('created_at', q.from, q.to)
      .search(['route', 'error_class', 'error_code', 'request_id'], q.search);
    return this.page({
      columns:
        'id, level, method, route, status, error_class, error_code, request_id, user_id, created_at',
      from: 'kb_application_logs',
      filter,
      order: 'id DESC',
      window,
      map: (r) => ({
        ...r,
        id: String(r['id']),
        user_id: idText(r['user_id']),
        created_at: iso(r['created_at']),
      }),
    });
  }

  activity(
    tenantId: string,
    q: ActivityLogQueryDto,
    window: PageWindow,
  ): Promise<Page<Record<string, unknown>>> {
    const filter = new SqlFilter('a.tenant_id', tenantId)
      .add('a.actor_user_id = ?::bigint', q.actor)
      .add('a.method = ?', q.method)
      .add('a.outcome = ?', q.outcome)
      .range('a.created_at', q.from, q.to)
      .search(['a.route', 'a.target_id', 'u.email'], q.search);
    return this.page({
      columns:
        'a.id, a.actor_user_id, a.actor_kind, u.name AS actor_name, u.email AS actor_email, a.method, a.route, a.status, a.outcome, a.target_id, a.request_id, a.created_at',
      from: 'kb_activity_logs a LEFT JOIN kb_users u ON u.id = a.actor_user_id',
      filter,
      order: 'a.id DESC',
      window,
      map: (r) => ({
        id: String(r['id']),
        actor:
          r['actor_user_id'] === null
            ? { kind: r['actor_kind'] }
            : {
                kind: r['actor_kind'],
                id: String(r['actor_user_id']),
                name: r['actor_name'],
                email: r['actor_email'],
              },
        method: r['method'],
        route: r['route'],
        status: r['status'],
        outcome: r['outcome'],
        target_id: r['target_id'],
        request_id: r['request_id'],
        created_at: iso(r['created_at']),
      }),
    });
  }
}
