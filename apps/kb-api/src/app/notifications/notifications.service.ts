import { Injectable } from '@nestjs/common';
import { KbError, KbValidationError } from '../errors/kb-errors';
import {
  DEFAULT_CHANNEL_STATE,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENT_TYPES,
  NotificationChannel,
  NotificationEventType,
  REGISTERED_CHANNELS,
} from './notification-types';
import { NotificationRow, NotificationsRepository, NotificationState } from './notifications.repository';

export type { NotificationState } from './notifications.repository';

export interface ListQuery {
  state: NotificationState;
  eventType?: string;
  page: number;
  perPage: number;
}

const present = (r: NotificationRow) => ({ ...r, id: Number(r.id) });

/** A user's in-app notifications in the active tenant: produced by events, read, dismissed, filtered by preference. */
@Injectable()
export class NotificationsService {
  constructor(private readonly notifications: NotificationsRepository) {}

  /** Notifies each user once, unless they turned the event type off for in-app delivery. */
  async notify(tenantId: string, userIds: Array<string | null>, eventType: NotificationEventType, payload: Record<string, unknown>): Promise<void> {
    const recipients = [...new Set(userIds.filter((u): u is string => u !== null))];
    if (recipients.length === 0) return;
    await this.notifications.insertForRecipients(tenantId, recipients, eventType, payload);
  }

  /** Active users holding a permission in the tenant, through a role or directly. */
  holdersOf(tenantId: string, permission: string): Promise<string[]> {
    return this.notifications.holdersOf(tenantId, permission);
  }

  async list(tenantId: string, userId: string, q: ListQuery) {
    const { rows, total } = await this.notifications.page(tenantId, userId, q.state, q.eventType, q.perPage, (q.page - 1) * q.perPage);
    return {
      data: rows.map(present),
      meta: { current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.perPage)), per_page: q.perPage, total, state: q.state },
    };
  }

  unreadCount(tenantId: string, userId: string): Promise<number> {
    return this.notifications.unreadCount(tenantId, userId);
  }

  /** Idempotent: `changed` says whether this call marked it. */
  async markRead(tenantId: string, userId: string, id: string) {
    const changed = await this.notifications.markRead(tenantId, userId, id);
    if (changed) return { data: present(changed), changed: true };
    return { data: present(await this.find(tenantId, userId, id)), changed: false };
  }

  /** Dismissing also marks it read. */
  async dismiss(tenantId: string, userId: string, id: string) {
    const row = await this.notifications.dismiss(tenantId, userId, id);
    if (!row) throw notFound();
    return { data: present(row) };
  }

  markAllRead(tenantId: string, userId: string, eventType?: string): Promise<number> {
    return this.notifications.markAllRead(tenantId, userId, eventType);
  }

  async preferences(tenantId: string, userId: string) {
    return {
      event_types: NOTIFICATION_EVENT_TYPES,
      channels: NOTIFICATION_CHANNELS,
      registered_channels: REGISTERED_CHANNELS,
      defaults: DEFAULT_CHANNEL_STATE,
      preferences: await this.notifications.preferences(tenantId, userId),
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
    await this.notifications.savePreferences(tenantId, userId, items);
    return this.preferences(tenantId, userId);
  }

  private async find(tenantId: string, userId: string, id: string): Promise<NotificationRow> {
    const row = await this.notifications.find(tenantId, userId, id);
    if (!row) throw notFound();
    return row;
  }
}

const notFound = () => new KbError(404, 'not_found', 'Notification not found.');
