import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type NotificationState = 'unread' | 'read' | 'dismissed' | 'all';

export interface NotificationRow {
  id: string;
  event_type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
  dismissed_at: Date | null;
}

export interface NotificationPreferenceRow {
  event_type: string;
  channel: string;
  enabled: boolean;
}

const STATE_CONDITION: Record<NotificationState, string> = {
  unread: 'read_at IS NULL AND dismissed_at IS NULL',
  read: 'read_at IS NOT NULL AND dismissed_at IS NULL',
  dismissed: 'dismissed_at IS NOT NULL',
  all: 'TRUE',
};

const COLUMNS = 'id, event_type, payload, created_at, read_at, dismissed_at';

/** kb_notifications and kb_notification_preferences: a user's notifications in a tenant, always by tenant and owner. */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One notification per recipient, skipping those who turned the event type off for in-app delivery. */
  async insertForRecipients(tenantId: string, recipients: string[], eventType: string, payload: Record<string, unknown>): Promise<void> {
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

  /** One page of a user's notifications in a state (optionally of one event type), newest first, and how many there are. */
  async page(tenantId: string, userId: string, state: NotificationState, eventType: string | undefined, limit: number, offset: number) {
    const where = `tenant_id = $1 AND user_id = $2 AND ${STATE_CONDITION[state]} AND ($3::text IS NULL OR event_type = $3)`;
    const params = [tenantId, userId, eventType ?? null];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_notifications WHERE ${where}`, params);
    const rows: NotificationRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM kb_notifications WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    return { rows, total: total as number };
  }

  async unreadCount(tenantId: string, userId: string): Promise<number> {
    const [{ n }] = await this.db.query(`SELECT count(*)::int AS n FROM kb_notifications WHERE tenant_id = $1 AND user_id = $2 AND ${STATE_CONDITION.unread}`, [tenantId, userId]);
    return n;
  }

  /** The row if this call marked it read; null when it was already read or does not exist. */
  async markRead(tenantId: string, userId: string, id: string): Promise<NotificationRow | null> {
    const [[changed]] = await this.db.query(
      `UPDATE kb_notifications SET read_at = now() WHERE tenant_id = $1 AND user_id = $2 AND id = $3 AND read_at IS NULL RETURNING ${COLUMNS}`,
      [tenantId, userId, id],
    );
    return changed ?? null;
  }

  /** Dismissing also marks it read. Null when there is no such notification. */
  async dismiss(tenantId: string, userId: string, id: string): Promise<NotificationRow | null> {
    const [[row]] = await this.db.query(
      `UPDATE kb_notifications SET dismissed_at = coalesce(dismissed_at, now()), read_at = coalesce(read_at, now())
       WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      [tenantId, userId, id],
    );
    return row ?? null;
  }

  /** How many were marked. */
  async markAllRead(tenantId: string, userId: string, eventType?: string): Promise<number> {
    const [, count] = await this.db.query(
      `UPDATE kb_notifications SET read_at = now() WHERE tenant_id = $1 AND user_id = $2 AND read_at IS NULL AND ($3::text IS NULL OR event_type = $3)`,
      [tenantId, userId, eventType ?? null],
    );
    return Number(count);
  }

  async find(tenantId: string, userId: string, id: string): Promise<NotificationRow | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_notifications WHERE tenant_id = $1 AND user_id = $2 AND id = $3`, [tenantId, userId, id]);
    return row ?? null;
  }

  preferences(tenantId: string, userId: string): Promise<NotificationPreferenceRow[]> {
    return this.db.query('SELECT event_type, channel, enabled FROM kb_notification_preferences WHERE tenant_id = $1 AND user_id = $2 ORDER BY event_type, channel', [
      tenantId,
      userId,
    ]);
  }

  /** Upserts every item in one transaction: all or none. */
  async savePreferences(tenantId: string, userId: string, items: NotificationPreferenceRow[]): Promise<void> {
    await this.db.transaction(async (m) => {
      for (const p of items) {
        await m.query(
          `INSERT INTO kb_notification_preferences (tenant_id, user_id, event_type, channel, enabled) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (tenant_id, user_id, event_type, channel) DO UPDATE SET enabled = EXCLUDED.enabled`,
          [tenantId, userId, p.event_type, p.channel, p.enabled],
        );
      }
    });
  }
}
