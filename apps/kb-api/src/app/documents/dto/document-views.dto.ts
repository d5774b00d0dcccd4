import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { nullable } from '../../api-docs/schema';

const NULLABLE_STRING = nullable({ type: 'string' });

export class DocumentMatchDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  project_key!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  source_path!: string;

  @ApiProperty()
  source_type!: string;

  @ApiProperty(NULLABLE_STRING)
  canonical_type!: string | null;
}

export class DocumentMatchesDto {
  @ApiProperty({ type: [DocumentMatchDto], maxItems: 20 })
  data!: DocumentMatchDto[];
}

/** What the preview and the wikilink target both tell of a document. */
class DocumentFactsDto {
  @ApiProperty()
  title!: string;

  @ApiProperty()
  source_path!: string;

  @ApiProperty(NULLABLE_STRING)
  canonical_type!: string | null;

  @ApiProperty(NULLABLE_STRING)
  canonical_status!: string | null;

  @ApiProperty()
  is_canonical!: boolean;
}

export class DocumentPreviewDto extends DocumentFactsDto {
  @ApiProperty({ type: 'integer' })
  document_id!: number;

  @ApiProperty()
  slug!: string;

  @ApiProperty()
  project_key!: string;

  @ApiProperty()
  source_type!: string;

  @ApiProperty({ description: "The document's source text" })
  content!: string;
}

export class WikilinkTargetDto extends DocumentFactsDto {
  @ApiProperty({ type: 'integer' })
  document_id!: number;

  @ApiProperty({ description: 'The start of the first chunk' })
  preview!: string;
}

export class RelatedDocumentDto {
  @ApiProperty()
  slug!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ enum: ['outgoing', 'incoming'] })
  direction!: string;
}

class CountMetaDto {
  @ApiProperty({ type: 'integer' })
  count!: number;
}

export class RelatedDocumentsDto {
  @ApiProperty({ type: [RelatedDocumentDto] })
  related!: RelatedDocumentDto[];

  @ApiProperty({ type: CountMetaDto })
  meta!: CountMetaDto;
}

export class CollectionChoiceDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;
}

export class CollectionChoicesDto {
  @ApiProperty({ type: [CollectionChoiceDto] })
  data!: CollectionChoiceDto[];
}

export class RemovalEntryDto {
  @ApiProperty()
  project_key!: string;

  @ApiProperty()
  source_path!: string;

  @ApiProperty(nullable({ type: 'integer' }))
  document_id!: number | null;

  @ApiProperty({ enum: ['deleted', 'not_found'] })
  status!: string;

  @ApiPropertyOptional({ enum: ['soft', 'hard'], description: 'Set when deleted' })
  mode?: string;

  @ApiPropertyOptional({ description: 'Set when deleted: whether the stored file went too' })
  file_deleted?: boolean;
}

export class RemovalResultDto {
  @ApiProperty({ type: 'integer' })
  deleted!: number;

  @ApiProperty({ type: 'integer' })
  missing!: number;

  @ApiProperty({ type: [RemovalEntryDto] })
  documents!: RemovalEntryDto[];
}
