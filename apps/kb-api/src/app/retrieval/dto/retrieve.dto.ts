import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ChatFiltersDto } from '../../chat/dto/chat.dto';

/** POST /api/kb/retrieve: the chat's question and filters, without an answer. */
export class RetrieveRequestDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  query!: string;

  /** The chat's filter object, validated by the same class so both routes accept the same filters. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  top_k?: number;
}

export interface RetrieveHit {
  document_id: number;
  chunk_id: number;
  source_path: string;
  title: string;
  project_key: string;
  score: number;
  snippet: string;
}

export interface RetrieveAnswer {
  data: RetrieveHit[];
  meta: { total_candidates: number; latency_ms: number; retrievers: string[] };
}
