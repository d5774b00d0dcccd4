import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ChatFiltersDto } from '../../chat/dto/chat.dto';
import { trimmed } from '../../admin/pagination';


export class CreateConversationDto {
  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  project_key?: string;
}

export class RenameConversationDto {
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title!: string;
}

/** One chat turn: the question plus the chat request's own filters. */
export class SendMessageDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  content!: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto;
}

export class MessageFeedbackDto {
  @IsIn(['positive', 'negative'])
  rating!: 'positive' | 'negative';
}
