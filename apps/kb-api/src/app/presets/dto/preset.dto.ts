import { Transform, Type } from 'class-transformer';
import { IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ChatFiltersDto } from '../../chat/dto/chat.dto';

/** A named set of chat filters; the filters follow the chat request's own rules. */
export class ChatFilterPresetDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters!: ChatFiltersDto;
}
