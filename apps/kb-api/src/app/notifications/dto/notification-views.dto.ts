import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DATE_TIME, nullable } from '../../api-docs/schema';
import { NOTIFICATION_CHANNELS, NOTIFICATION_EVENT_TYPES } from '../notification-types';

export class NotificationViewDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ enum: NOTIFICATION_EVENT_TYPES })
  event_type!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Event details, e.g. approval_id, slug, path, document_id, reason, error' })
  payload!: Record<string, unknown>;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(nullable(DATE_TIME))
  read_at!: string | null;

  @ApiProperty(nullable(DATE_TIME))
  dismissed_at!: string | null;
}

class NotificationPageMetaDto {
  @ApiProperty({ type: 'integer' })
  current_page!: number;

  @ApiProperty({ type: 'integer' })
  last_page!: number;

  @ApiProperty({ type: 'integer' })
  per_page!: number;

  @ApiProperty({ type: 'integer' })
  total!: number;

  @ApiProperty({ enum: ['unread', 'read', 'dismissed', 'all'] })
  state!: string;
}

export class NotificationPageDto {
  @ApiProperty({ type: [NotificationViewDto] })
  data!: NotificationViewDto[];

  @ApiProperty({ type: NotificationPageMetaDto })
  meta!: NotificationPageMetaDto;
}

export class UnreadCountDto {
  @ApiProperty({ type: 'integer', minimum: 0 })
  unread_count!: number;
}

export class EventTypesDto {
  @ApiProperty({ enum: NOTIFICATION_EVENT_TYPES, isArray: true })
  data!: string[];
}

export class MarkedReadDto {
  @ApiProperty({ type: 'integer', minimum: 0 })
  marked_read!: number;
}

export class NotificationChangeDto {
  @ApiProperty({ type: NotificationViewDto })
  data!: NotificationViewDto;

  @ApiPropertyOptional({ description: 'mark-read: false when it was already read' })
  changed?: boolean;
}

export class NotificationPreferenceViewDto {
  @ApiProperty({ enum: NOTIFICATION_EVENT_TYPES })
  event_type!: string;

  @ApiProperty({ enum: NOTIFICATION_CHANNELS })
  channel!: string;

  @ApiProperty()
  enabled!: boolean;
}

/** The caller's delivery preferences, with what is offered and what is delivered. */
export class NotificationPreferencesDto {
  @ApiProperty({ enum: NOTIFICATION_EVENT_TYPES, isArray: true })
  event_types!: string[];

  @ApiProperty({ enum: NOTIFICATION_CHANNELS, isArray: true })
  channels!: string[];

  @ApiProperty({ enum: NOTIFICATION_CHANNELS, isArray: true, description: 'Channels actually delivered' })
  registered_channels!: string[];

  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' }, description: 'Enabled state per channel when unset' })
  defaults!: Record<string, boolean>;

  @ApiProperty({ type: [NotificationPreferenceViewDto] })
  preferences!: NotificationPreferenceViewDto[];
}
