import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { NOTIFICATION_EVENT_TYPES } from './notification-types';
import { ListNotificationsQuery, MarkAllReadDto, SaveNotificationPreferencesDto } from './dto/notifications.dto';
import { NotificationsService } from './notifications.service';

const caller = (req: KbRequest) => ({ tenantId: req.kbPrincipal!.tenantId, userId: req.kbPrincipal!.userId! });
const notificationId = new RecordIdPipe('Notification');

/** The caller's own notifications; another user's id answers 404. */
@Controller('api/notifications')
@UserOnly()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  list(@Query() q: ListNotificationsQuery, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.list(tenantId, userId, { state: q.state ?? 'unread', eventType: q.event_type, page: q.page ?? 1, perPage: q.per_page ?? 20 });
  }

  @Get('unread-count')
  async unreadCount(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { unread_count: await this.notifications.unreadCount(tenantId, userId) };
  }

  @Get('event-types')
  eventTypes() {
    return { data: NOTIFICATION_EVENT_TYPES };
  }

  @Get('preferences')
  preferences(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.preferences(tenantId, userId);
  }

  @Put('preferences')
  savePreferences(@Body() body: SaveNotificationPreferencesDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.savePreferences(tenantId, userId, body.preferences);
  }

  @Post('mark-all-read')
  @HttpCode(200)
  async markAllRead(@Body() body: MarkAllReadDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { marked_read: await this.notifications.markAllRead(tenantId, userId, body.event_type) };
  }

  @Post(':id/mark-read')
  @HttpCode(200)
  markRead(@Param('id', notificationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.markRead(tenantId, userId, id);
  }

  @Post(':id/dismiss')
  @HttpCode(200)
  dismiss(@Param('id', notificationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.dismiss(tenantId, userId, id);
  }
}
