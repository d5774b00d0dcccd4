import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_PAGE } from '../../admin/pagination';

export class ListNotificationsQuery {
  @IsOptional()
  @IsIn(['unread', 'read', 'dismissed', 'all'])
  state?: 'unread' | 'read' | 'dismissed' | 'all';

  @IsOptional()
  @IsString()
  @MaxLength(100)
  event_type?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;
}

export class MarkAllReadDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  event_type?: string;
}

export class NotificationPreferenceDto {
  @IsString()
  @MaxLength(100)
  event_type!: string;

  @IsString()
  @MaxLength(40)
  channel!: string;

  @IsBoolean()
  enabled!: boolean;
}

export class SaveNotificationPreferencesDto {
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => NotificationPreferenceDto)
  preferences!: NotificationPreferenceDto[];
}
