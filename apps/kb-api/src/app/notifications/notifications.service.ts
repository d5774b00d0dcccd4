import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { KbError, KbValidationError } from '../errors/kb-errors';
import {
  DEFAULT_CHANNEL_STATE,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENT_TYPES,
  NotificationChannel,
  NotificationEventType,
  REGISTERED_CHANNELS,
} from './notification-types';

export type NotificationState = 'unread' | 'read' | 'dismissed' | 'all';

interface NotificationRow {
  id: string;
  event_type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
  dismissed_at: Date | null;
}

export interface ListQuery {
  state: NotificationState;
  eventType?: string;
  page: number;
  perPage: number;
}

const STATE_CONDITION: Record<NotificationState, string> = {
  unread: 'read_at IS NULL AND dismissed_at IS NULL',
  read: 'read_at IS NOT NULL AND dismissed_at IS NULL',
  dismissed: 'dismissed_at IS NOT NULL',
  all: 'TRUE',
};

const COLUMNS = 'id, event_type, payload, created_at, read_at, dismissed_at';
const present = (r: NotificationRow) => ({ ...r, id: Number(r.id) });

/** A user's in-app notifications in the active tenant: produced by events, read, dismissed, filtered by preference. */
@Injectable()
export class NotificationsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Notifies each user once, unless they turned the event type off for in-app delivery. */
  async notify(tenantId: string, userIds: Array<string | null>, eventType: NotificationEventType, payload: Record<string, unknown>): Promise<void> {
    const recipients = [...new Set(userIds.filter((u): u is string => u !== null))];
    if (recipients.length === 0) return;
    await this.db.query(
      `INSERT INTO kb_notifications (tenant_id, user_id, event_type, payload)
       SELECT $1, u.id, $3, $4 FROM kb_users u
       WHERE u.id = ANY($2::bigint[]) AND NOT EXISTS (
         SELECT 1 FROM kb_notification_preferences p
         WHERE p.tenant_id = $1 AND p.user_id = u.id AND p.event_type = $3 AND p.channel = 'in_app' AND NOT p.enabled)`,
      [tenantId, recipients, eventType, JSON.stringify(payload)],
    );
  }

  /** Active users holding a permission in the tenant, through a role or directly. */
  async holdersOf(tenantId: string, permission: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT u.id FROM kb_users u WHERE u.active AND (
         EXISTS (SELECT 1 FROM kb_user_roles ur JOIN kb_effective_role_permissions rp ON rp.role = ur.role AND rp.tenant_id = ur.tenant_id
                 WHERE ur.user_id = u.id AND ur.tenant_id = $1 AND rp.permission = $2)
         OR EXISTS (SELECT 1 FROM kb_user_permissions up WHERE up.user_id = u.id AND up.tenant_id = $1 AND up.permission = $2))
       ORDER BY u.id`,
      [tenantId, permission],
    );
    return rows.map((r) => String(r.id));
  }

  async list(tenantId: string, userId: string, q: ListQuery) {
    const where = `tenant_id = $1 AND user_id = $2 AND ${STATE_CONDITION[q.state]} AND ($3::text IS NULL OR event_type = $3)`;
    const params = [tenantId, userId, q.eventType ?? null];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_notifications WHERE ${where}`, params);
    const rows: NotificationRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM kb_notifications WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [...params, q.perPage, (q.page - 1) * q.perPage],
    );
    return {
      data: rows.map(present),
      meta: { current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.perPage)), per_page: q.perPage, total, state: q.state },
    };
  }

  async unreadCount(tenantId: string, userId: string): Promise<number> {
    const [{ n }] = await this.db.query(`SELECT count(*)::int AS n FROM kb_notifications WHERE tenant_id = $1 AND user_id = $2 AND ${STATE_CONDITION.unread}`, [tenantId, userId]);
    return n;
  }

  /** Idempotent: `changed` says whether this call marked it. */
  async markRead(tenantId: string, userId: string, id: string) {
    const [[changed]] = await this.db.query(
      `UPDATE kb_notifications SET read_at = now() WHERE tenant_id = $1 AND user_id = $2 AND id = $3 AND read_at IS NULL RETURNING ${COLUMNS}`,
      [tenantId, userId, id],
    );
    if (changed) return { data: present(changed), changed: true };
    return { data: present(await this.find(tenantId, userId, id)), changed: false };
  }

  /** Dismissing also marks it read. */
  async dismiss(tenantId: string, userId: string, id: string) {
    const [[row]] = await this.db.query(
      `UPDATE kb_notifications SET dismissed_at = coalesce(dismissed_at, now()), read_at = coalesce(read_at, now())
       WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      [tenantId, userId, id],
    );
    if (!row) throw notFound();
    return { data: present(row) };
  }

  async markAllRead(tenantId: string, userId: string, eventType?: string): Promise<number> {
    const [, count] = await this.db.query(
      `UPDATE kb_notifications SET read_at = now() WHERE tenant_id = $1 AND user_id = $2 AND read_at IS NULL AND ($3::text IS NULL OR event_type = $3)`,
      [tenantId, userId, eventType ?? null],
    );
    return Number(count);
  }

  async preferences(tenantId: string, userId: string) {
    const rows: Array<{ event_type: string; channel: string; enabled: boolean }> = await this.db.query(
      'SELECT event_type, channel, enabled FROM kb_notification_preferences WHERE tenant_id = $1 AND user_id = $2 ORDER BY event_type, channel',
      [tenantId, userId],
    );
    return {
      event_types: NOTIFICATION_EVENT_TYPES,
      channels: NOTIFICATION_CHANNELS,
      registered_channels: REGISTERED_CHANNELS,
      defaults: DEFAULT_CHANNEL_STATE,
      preferences: rows,
    };
  }

  /** All-or-nothing: an unknown event type or channel rejects the whole request. */
  async savePreferences(tenantId: string, userId: string, items: Array<{ event_type: string; channel: string; enabled: boolean }>) {
    const errors: Record<string, string[]> = {};
    items.forEach((p, i) => {
      if (!(NOTIFICATION_EVENT_TYPES as readonly string[]).includes(p.event_type)) errors[`preferences.${i}.event_type`] = ['The event type is unknown.'];
      if (!(NOTIFICATION_CHANNELS as readonly string[]).includes(p.channel as NotificationChannel)) errors[`preferences.${i}.channel`] = ['The channel is unknown.'];
    });
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    await this.db.transaction(async (m) => {
      for (const p of items) {
        await m.query(
          `INSERT INTO kb_notification_preferences (tenant_id, user_id, event_type, channel, enabled) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (tenant_id, user_id, event_type, channel) DO UPDATE SET enabled = EXCLUDED.enabled`,
          [tenantId, userId, p.event_type, p.channel, p.enabled],
        );
      }
    });
    return this.preferences(tenantId, userId);
  }

  private async find(tenantId: string, userId: string, id: string): Promise<NotificationRow> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_notifications WHERE tenant_id = $1 AND user_id = $2 AND id = $3`, [tenantId, userId, id]);
    if (!row) throw notFound();
    return row;
  }
}

const notFound = () => new KbError(404, 'not_found', 'Notification not found.');
