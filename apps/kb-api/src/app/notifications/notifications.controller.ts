import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed, ErrorBody, MessageBody } from '../api-docs';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { NOTIFICATION_EVENT_TYPES } from './notification-types';
import { ListNotificationsQuery, MarkAllReadDto, SaveNotificationPreferencesDto } from './dto/notifications.dto';
import { NotificationsService } from './notifications.service';
import {
  EventTypesDto,
  MarkedReadDto,
  NotificationChangeDto,
  NotificationPageDto,
  NotificationPreferencesDto,
  UnreadCountDto,
} from './dto/notification-views.dto';

const caller = (req: KbRequest) => ({ tenantId: req.kbPrincipal!.tenantId, userId: req.kbPrincipal!.userId! });
const notificationId = new RecordIdPipe('Notification');
const ApiNotificationId = () => ApiParam({ name: 'id', description: 'Notification id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } });
const ApiNotOwnNotification = () =>
  ApiResponse({ status: 404, description: "Another user's or an unknown notification `{error: \"not_found\", message}`", type: ErrorBody });

/** The caller's own notifications; another user's id answers 404. */
@ApiTags('Notifications')
@ApiResponse({ status: 401, description: 'Guest `{message: "Unauthenticated."}`', type: MessageBody })
@ApiResponse({ status: 403, description: 'An integration token without a user `{message}`', type: MessageBody })
@Controller('api/notifications')
@UserOnly()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's notifications in the active tenant, newest first" })
  @ApiOkResponse({ description: 'A page', type: NotificationPageDto })
  @ApiValidationFailed('Bad query `{message, errors}`')
  list(@Query() q: ListNotificationsQuery, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.list(tenantId, userId, { state: q.state ?? 'unread', eventType: q.event_type, page: q.page ?? 1, perPage: q.per_page ?? 20 });
  }

  @Get('unread-count')
  @ApiOperation({ summary: 'Unread and not dismissed' })
  @ApiOkResponse({ description: 'Count', type: UnreadCountDto })
  async unreadCount(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { unread_count: await this.notifications.unreadCount(tenantId, userId) };
  }

  @Get('event-types')
  @ApiOperation({ summary: 'Every event type' })
  @ApiOkResponse({ description: 'Types', type: EventTypesDto })
  eventTypes() {
    return { data: NOTIFICATION_EVENT_TYPES };
  }

  @Get('preferences')
  @ApiOperation({ summary: "The caller's delivery preferences" })
  @ApiOkResponse({ description: 'Preferences', type: NotificationPreferencesDto })
  preferences(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.preferences(tenantId, userId);
  }

  @Put('preferences')
  @ApiOperation({ summary: 'Saves preferences, all or none; turning in_app off for a type stops those notifications' })
  @ApiOkResponse({ description: 'Preferences', type: NotificationPreferencesDto })
  @ApiValidationFailed('An unknown event type or channel `{message, errors}`')
  savePreferences(@Body() body: SaveNotificationPreferencesDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.savePreferences(tenantId, userId, body.preferences);
  }

  @Post('mark-all-read')
  @ApiOperation({ summary: 'Marks every unread notification (of one event type) read' })
  @ApiBody({ type: MarkAllReadDto, required: false })
  @ApiOkResponse({ description: 'How many were marked', type: MarkedReadDto })
  @HttpCode(200)
  async markAllRead(@Body() body: MarkAllReadDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { marked_read: await this.notifications.markAllRead(tenantId, userId, body.event_type) };
  }

  @Post(':id/mark-read')
  @ApiOperation({ summary: 'Marks one read; idempotent' })
  @ApiNotificationId()
  @ApiOkResponse({ description: '`changed` is false when it was already read', type: NotificationChangeDto })
  @ApiNotOwnNotification()
  @HttpCode(200)
  markRead(@Param('id', notificationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.markRead(tenantId, userId, id);
  }

  @Post(':id/dismiss')
  @ApiOperation({ summary: 'Dismisses one (and marks it read)' })
  @ApiNotificationId()
  @ApiOkResponse({ description: 'Dismissed', type: NotificationChangeDto })
  @ApiNotOwnNotification()
  @HttpCode(200)
  dismiss(@Param('id', notificationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.notifications.dismiss(tenantId, userId, id);
  }
}
