import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ApiNullableChatFilters, ChatFiltersDto } from '../../chat/dto/chat.dto';

/** POST /api/kb/retrieve: the chat's question and filters, without an answer. `filters: null` is no filters (as absent); `top_k: null` is refused. */
@ApiExtraModels(ChatFiltersDto)
export class RetrieveRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 10_000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  query!: string;

  /** The chat's filter object, validated by the same class so both routes accept the same filters. */
  @ApiNullableChatFilters("The chat's filter object, applied in SQL")
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 10 })
  @UnlessAbsent()
  @IsInt()
  @Min(1)
  @Max(100)
  top_k?: number;
}

/** One ranked chunk. */
export class RetrieveHit {
  @ApiProperty({ type: 'integer' })
  document_id!: number;

  @ApiProperty({ type: 'integer' })
  chunk_id!: number;

  @ApiProperty()
  source_path!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  project_key!: string;

  @ApiProperty({ description: 'Relevance in 0..1; the order is the ranking' })
  score!: number;

  @ApiProperty({ maxLength: 240 })
  snippet!: string;
}

export class RetrieveMeta {
  @ApiProperty({ type: 'integer', description: 'Chunks scored before the cut at top_k' })
  total_candidates!: number;

  @ApiProperty({ type: 'integer' })
  latency_ms!: number;

  @ApiProperty({ enum: ['lexical', 'vector'], isArray: true })
  retrievers!: string[];
}

/** The ranking, best first, one entry per chunk. */
export class RetrieveAnswer {
  @ApiProperty({ type: [RetrieveHit] })
  data!: RetrieveHit[];

  @ApiProperty({ type: RetrieveMeta })
  meta!: RetrieveMeta;
}
