import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DATE_TIME, nullable } from '../../api-docs/schema';

const RATING: SchemaObject = { type: 'string', enum: ['positive', 'negative'] };

export class ConversationViewDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty(nullable({ type: 'string' }))
  title!: string | null;

  @ApiProperty(nullable({ type: 'string' }))
  project_key!: string | null;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;
}

/** A turn of a conversation; an assistant reply also carries `confidence` and `refusal_reason`. */
export class ConversationMessageDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ enum: ['user', 'assistant'] })
  role!: string;

  @ApiProperty()
  content!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Citations and answer metadata of an assistant reply' })
  metadata!: Record<string, unknown>;

  @ApiProperty(nullable(RATING))
  rating!: string | null;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiPropertyOptional()
  confidence?: number;

  @ApiPropertyOptional(nullable({ type: 'string' }))
  refusal_reason?: string | null;
}

export class MessageRatingDto {
  @ApiProperty({ ...nullable(RATING), description: 'null: the same rating again cleared it' })
  rating!: string | null;
}

export class ConversationTitleDto {
  @ApiProperty({ maxLength: 80 })
  title!: string;
}
