import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ChatFiltersDto } from '../../chat/dto/chat.dto';

/** A named set of chat filters; the filters follow the chat request's own rules. */
export class ChatFilterPresetDto {
  @ApiProperty({ minLength: 1, maxLength: 120, description: 'Unique among the caller\'s presets' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name!: string;

  @ApiProperty({ type: () => ChatFiltersDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters!: ChatFiltersDto;
}
