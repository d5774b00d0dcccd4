import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { UnlessAbsent } from '@platform/observability';
import { MAX_PAGE, queryInteger } from '../../admin/pagination';

export class ListNotificationsQuery {
  @ApiPropertyOptional({ enum: ['unread', 'read', 'dismissed', 'all'], default: 'unread' })
  @IsOptional()
  @IsIn(['unread', 'read', 'dismissed', 'all'])
  state?: 'unread' | 'read' | 'dismissed' | 'all';

  @ApiPropertyOptional({ maxLength: 100, description: 'Only this event type' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  event_type?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @queryInteger()
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @queryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;
}

/** Absent: every event type; null is refused (422), not read as "every type". */
export class MarkAllReadDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Only notifications of this event type (absent: every type)' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(100)
  event_type?: string;
}

export class NotificationPreferenceDto {
  @ApiProperty({ maxLength: 100, description: 'One of the event types (422 otherwise)' })
  @IsString()
  @MaxLength(100)
  event_type!: string;

  @ApiProperty({ maxLength: 40, description: 'One of the channels (422 otherwise)' })
  @IsString()
  @MaxLength(40)
  channel!: string;

  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;
}

export class SaveNotificationPreferencesDto {
  @ApiProperty({ type: () => [NotificationPreferenceDto], maxItems: 100 })
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => NotificationPreferenceDto)
  preferences!: NotificationPreferenceDto[];
}
