import { ApiProperty } from '@nestjs/swagger';
import { nullable } from '../../api-docs/schema';

/** A chunk of a cited document that grounded the answer. */
export class CitedChunkDto {
  @ApiProperty({ type: 'integer' })
  chunk_id!: number;

  @ApiProperty(nullable({ type: 'string' }))
  heading!: string | null;

  @ApiProperty()
  score!: number;

  @ApiProperty()
  snippet!: string;

  @ApiProperty({ description: 'Hash of the quoted text, to check the evidence later' })
  evidence_hash!: string;
}

/** A document the answer cites, with the chunks it used. */
export class CitationDto {
  @ApiProperty({ type: 'integer' })
  document_id!: number;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  source_path!: string;

  @ApiProperty()
  slug!: string;

  @ApiProperty()
  project_key!: string;

  @ApiProperty()
  source_type!: string;

  @ApiProperty({ type: [String] })
  headings!: string[];

  @ApiProperty({ type: 'integer' })
  chunks_used!: number;

  @ApiProperty({ enum: ['primary'] })
  origin!: 'primary';

  @ApiProperty({ type: [CitedChunkDto] })
  chunks!: CitedChunkDto[];
}

export class ChatAnswerMetaDto {
  @ApiProperty({ description: 'The answering provider (`none`: extractive)' })
  provider!: string;

  @ApiProperty(nullable({ type: 'string' }))
  model!: string | null;

  @ApiProperty({ type: 'integer' })
  chunks_used!: number;

  @ApiProperty({ type: 'integer' })
  primary_count!: number;

  @ApiProperty({ type: 'integer' })
  latency_ms!: number;

  @ApiProperty({ type: 'object', additionalProperties: true })
  latency_ms_breakdown!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true })
  filters_selected!: Record<string, unknown>;
}

/** A grounded answer with citations, or a refusal (confidence 0, refusal_reason set). */
export class ChatAnswerDto {
  @ApiProperty()
  answer!: string;

  @ApiProperty({ type: [CitationDto] })
  citations!: CitationDto[];

  @ApiProperty({ minimum: 0, maximum: 1 })
  confidence!: number;

  @ApiProperty(nullable({ type: 'string' }))
  refusal_reason!: string | null;

  @ApiProperty({ type: ChatAnswerMetaDto })
  meta!: ChatAnswerMetaDto;
}

export class AnonymousChatConfigDto {
  @ApiProperty()
  enabled!: boolean;
}
