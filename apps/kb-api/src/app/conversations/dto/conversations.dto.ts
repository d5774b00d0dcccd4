import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ApiNullableChatFilters, ChatFiltersDto } from '../../chat/dto/chat.dto';
import { trimmed } from '../../admin/pagination';
import { ApiPropertySchema, nullable } from '../../api-docs';

export class CreateConversationDto {
  /** null: no project, as absent (a conversation answers `project_key: null` then, and a client may send it back). */
  @ApiPropertySchema(nullable({ type: 'string', minLength: 1, maxLength: 120 }), {
    required: false,
    description: 'The project the conversation is scoped to; null: no project, as absent',
  })
  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  project_key?: string | null;
}

export class RenameConversationDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title!: string;
}

/** One chat turn: the question plus the chat request's own filters (null: no filters, as on the chat). */
@ApiExtraModels(ChatFiltersDto)
export class SendMessageDto {
  @ApiProperty({ minLength: 1, maxLength: 10_000, description: 'The question' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  content!: string;

  @ApiNullableChatFilters()
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto | null;
}

export class MessageFeedbackDto {
  @ApiProperty({ enum: ['positive', 'negative'] })
  @IsIn(['positive', 'negative'])
  rating!: 'positive' | 'negative';
}
