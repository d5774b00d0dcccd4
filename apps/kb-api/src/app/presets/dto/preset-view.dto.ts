import { ApiProperty } from '@nestjs/swagger';
import { DATE_TIME } from '../../api-docs/schema';
import { ChatFiltersDto } from '../../chat/dto/chat.dto';

/** A saved, named set of chat filters. */
export class PresetViewDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: ChatFiltersDto })
  filters!: ChatFiltersDto;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;
}
