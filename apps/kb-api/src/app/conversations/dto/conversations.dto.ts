import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ChatFiltersDto } from '../../chat/dto/chat.dto';
import { trimmed } from '../../admin/pagination';

export class CreateConversationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 120, description: 'The project the conversation is scoped to' })
  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  project_key?: string;
}

export class RenameConversationDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title!: string;
}

/** One chat turn: the question plus the chat request's own filters. */
export class SendMessageDto {
  @ApiProperty({ minLength: 1, maxLength: 10_000, description: 'The question' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  content!: string;

  @ApiPropertyOptional({ type: () => ChatFiltersDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto;
}

export class MessageFeedbackDto {
  @ApiProperty({ enum: ['positive', 'negative'] })
  @IsIn(['positive', 'negative'])
  rating!: 'positive' | 'negative';
}
