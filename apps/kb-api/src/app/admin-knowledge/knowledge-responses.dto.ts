import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../api-docs';
import { ANALYSIS_KINDS } from './analyses/analyses.dto';
import { DOCUMENT_STATUSES } from './inventory/inventory.dto';
import { SERIES_METRICS } from './metrics/metrics.dto';

/** The answers of the admin knowledge routes, as the document describes them. */
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const obj = (properties: Record<string, object>, required?: string[]) => ({ type: 'object' as const, properties, ...(required ? { required } : {}) });
const arrayOf = (items: object) => ({ type: 'array' as const, items });
const chatWindow = obj({ total: int, refused: int, refusal_rate: { type: 'number', minimum: 0, maximum: 1 } });
const check = obj(
  { status: { enum: ['ok', 'degraded'] }, latency_ms: int, detail: { type: 'string', description: 'Why it is degraded' } },
  ['status', 'latency_ms'],
);
const finding = (sample: object) => obj({ count: int, samples: { type: 'array', maxItems: 10, items: sample } });
const sampleDocument = obj({ id: int, project_key: str, source_path: str, title: str, status: str, updated_at: DATE_TIME });
const treeDocument = obj({ id: int, source_path: str, title: str, status: str, chunk_count: int });

export class MetricsOverviewDto {
  @ApiProperty({ type: 'integer' }) documents!: number;
  @ApiPropertySchema({ type: 'object', additionalProperties: int }) documents_by_status!: Record<string, number>;
  @ApiProperty({ type: 'integer' }) chunks!: number;
  @ApiProperty({ type: 'integer' }) projects!: number;
  @ApiProperty({ type: 'integer', description: 'Users whose home tenant this is' }) users!: number;
  @ApiPropertySchema(obj({ last_24h: chatWindow, last_7d: chatWindow, mean_confidence_7d: nullable({ type: 'number' }) })) chats!: object;
  @ApiPropertySchema(
    obj({ waiting: int, active: int, delayed: int, failed: int, paused: int, depth: int, tenant_pending_documents: int }),
    { description: 'The ingest queue, shared by every tenant' },
  )
  ingest_queue!: object;
  @ApiPropertySchema(obj({ should_have_cited: int, not_relevant: int })) feedback!: object;
  @ApiPropertySchema(DATE_TIME) generated_at!: string;
}

export class MetricsHealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status!: string;
  @ApiPropertySchema(obj({ database: check, redis: check, queue: check, worker: check })) checks!: object;
  @ApiPropertySchema(DATE_TIME) checked_at!: string;
}

export class MetricsTimeseriesDto {
  @ApiProperty({ enum: SERIES_METRICS }) metric!: string;
  @ApiProperty({ type: 'integer' }) days!: number;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiPropertySchema(arrayOf(obj({ date: { type: 'string', format: 'date' }, value: int })), { description: 'One bucket per UTC day, today last' })
  data!: object[];
}

/** A folder of the tree (folders nest). */
export class KbTreeFolderDto {
  @ApiProperty() name!: string;
  @ApiProperty() path!: string;
  @ApiProperty({ type: 'integer' }) document_count!: number;
  @ApiProperty({ type: 'integer' }) chunk_count!: number;
  @ApiProperty({ type: () => [KbTreeFolderDto] }) folders!: KbTreeFolderDto[];
  @ApiPropertySchema(arrayOf(treeDocument)) documents!: object[];
}

export class KbTreeProjectDto {
  @ApiProperty() project_key!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer' }) document_count!: number;
  @ApiProperty({ type: 'integer' }) chunk_count!: number;
  @ApiProperty({ type: () => [KbTreeFolderDto] }) folders!: KbTreeFolderDto[];
  @ApiPropertySchema(arrayOf(treeDocument)) documents!: object[];
}

export class KbTreeDto {
  @ApiProperty({ type: () => [KbTreeProjectDto] }) data!: KbTreeProjectDto[];
  @ApiProperty({ description: 'More documents than the limit exist; counts still cover every one' }) documents_truncated!: boolean;
  @ApiProperty({ type: 'integer' }) document_limit!: number;
}

export class KbHealthDto {
  @ApiProperty({ enum: ['healthy', 'attention'] }) status!: string;
  @ApiPropertySchema(obj({ stale_after_days: int, stuck_ingest_minutes: int })) thresholds!: object;
  @ApiPropertySchema(
    obj({
      without_chunks: finding(sampleDocument),
      failed_ingests: finding({ allOf: [sampleDocument, obj({ error: nullable(str) })] }),
      stuck_ingests: finding(sampleDocument),
      duplicate_content: finding(obj({ content_hash: str, documents: arrayOf(obj({ id: int, project_key: str, source_path: str, title: str })) })),
      broken_links: finding(obj({ document_id: int, project_key: str, source_path: str, target_slug: str })),
      stale_documents: finding({ allOf: [sampleDocument, obj({ indexed_at: nullable(DATE_TIME) })] }),
    }),
  )
  findings!: object;
}

/** Where a document's evidence rank comes from. */
export class EvidenceLabelDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 }) rank!: number;
  @ApiPropertySchema(nullable(str)) label!: string | null;
  @ApiProperty({ enum: ['path_prefix', 'source_type', 'default'] }) matched_by!: string;
}

export class AdminDocumentDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() project_key!: string;
  @ApiProperty() source_path!: string;
  @ApiProperty() title!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: DOCUMENT_STATUSES }) status!: string;
  @ApiProperty() source_type!: string;
  @ApiProperty() mime_type!: string;
  @ApiProperty({ type: 'integer' }) chunk_count!: number;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiPropertySchema(nullable(str)) error!: string | null;
  @ApiProperty({ type: () => EvidenceLabelDto }) evidence!: EvidenceLabelDto;
  @ApiPropertySchema(nullable(DATE_TIME)) indexed_at!: string | null;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

/** One document with its chunks (first 500) and its wikilinks both ways. */
export class AdminDocumentDetailDto extends AdminDocumentDto {
  @ApiPropertySchema({ type: 'object', additionalProperties: true }) metadata!: object;
  @ApiPropertySchema(nullable(str)) content_hash!: string | null;
  @ApiProperty() language!: string;
  @ApiPropertySchema(
    arrayOf(
      obj({
        id: int,
        ord: int,
        heading_path: nullable(str),
        text: str,
        chunk_hash: str,
        wikilinks: arrayOf(str),
        injection_flagged: {
          type: 'boolean',
          description:
            'The ingest screen found instructions aimed at the model: excluded from answers, or quoted as untrusted data (`indirect_injection.flagged_content`)',
        },
        injection_rule_id: { ...nullable(str), description: 'The rule or classifier that matched (also in monitor mode, where nothing is flagged)' },
        injection_audit_id: { ...nullable(int), description: 'The guardrails audit row (principal `document:<id>`)' },
      }),
    ),
  )
  chunks!: object[];
  @ApiProperty() chunks_truncated!: boolean;
  @ApiProperty({ type: 'integer', description: 'Chunks of the document the ingest screen flagged (all, not only those shown)' })
  flagged_chunk_count!: number;
  @ApiPropertySchema(
    obj({
      outgoing: arrayOf(obj({ target_slug: str, resolved: bool, document_id: nullable(int), title: nullable(str), project_key: nullable(str) })),
      incoming: arrayOf(obj({ document_id: int, title: str, project_key: str, source_path: str })),
    }),
  )
  links!: object;
}

export class ReindexQueuedDto {
  @ApiProperty({ type: 'integer' }) document_id!: number;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
  @ApiProperty() job_id!: string;
  @ApiProperty() version_hash!: string;
}

export class AdminCollectionDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiPropertySchema(nullable(str)) description!: string | null;
  @ApiPropertySchema({ type: 'object', additionalProperties: true }) criteria!: object;
  @ApiProperty({ type: 'integer' }) document_count!: number;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

@ApiExtraModels(AdminCollectionDto)
export class CollectionMembersChangedDto {
  @ApiProperty({ type: [Number], description: 'Documents added' }) added!: number[];
  @ApiProperty({ type: [Number], description: 'Documents removed' }) removed!: number[];
  @ApiPropertySchema({ $ref: getSchemaPath(AdminCollectionDto) }) data!: AdminCollectionDto;
}

export class TagCountDto {
  @ApiProperty() tag!: string;
  @ApiProperty({ type: 'integer' }) documents!: number;
}

export class TagRenamedDto {
  @ApiProperty() tag!: string;
  @ApiProperty() previous!: string;
  @ApiProperty({ type: 'integer', description: 'Documents changed' }) documents!: number;
}

export class TagRemovedDto {
  @ApiProperty() tag!: string;
  @ApiProperty({ type: 'integer' }) removed_from!: number;
}

export class SynonymSetViewDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiPropertySchema(nullable(str)) project_key!: string | null;
  @ApiProperty({ type: [String] }) terms!: string[];
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

export class AnalysisSummaryDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() project_key!: string;
  @ApiProperty({ enum: ANALYSIS_KINDS }) kind!: string;
  @ApiPropertySchema(nullable(int)) created_by!: number | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
}

export class AnalysisDto extends AnalysisSummaryDto {
  @ApiPropertySchema(
    obj({
      documents: int,
      chunks: int,
      folders: arrayOf(obj({ folder: str, documents: int, chunks: int })),
      top_terms: arrayOf(obj({ term: str, documents: int, occurrences: int })),
      orphans: obj({ count: int, documents: arrayOf(obj({ id: int, source_path: str, title: str })) }),
    }),
  )
  result!: object;
}

export class ContentGapDto {
  @ApiProperty({ pattern: '^[0-9a-f]{32}$' }) id!: string;
  @ApiProperty({ description: 'The latest wording' }) question!: string;
  @ApiProperty() normalized_question!: string;
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty({ type: 'integer' }) refusals!: number;
  @ApiProperty({ type: 'integer' }) mean_confidence!: number;
  @ApiPropertySchema(DATE_TIME) last_asked_at!: string;
  @ApiPropertySchema(nullable(str)) sample_refusal_reason!: string | null;
}

export class ResolvedContentGapDto {
  @ApiProperty() id!: string;
  @ApiProperty() question!: string;
  @ApiPropertySchema(nullable(str)) note!: string | null;
  @ApiPropertySchema(nullable(int)) resolved_by!: number | null;
  @ApiPropertySchema(DATE_TIME) resolved_at!: string;
}

export class WikiBuildSummaryDto {
  @ApiProperty({ type: 'integer' }) documents_considered!: number;
  @ApiProperty({ type: 'integer' }) concepts!: number;
  @ApiProperty({ type: 'integer' }) headings!: number;
  @ApiProperty({ type: 'integer' }) terms!: number;
  @ApiProperty({ type: 'integer' }) pages!: number;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
}

export class WikiPageDto {
  @ApiProperty({ type: 'integer' }) concept_id!: number;
  @ApiProperty() slug!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: 'integer' }) document_count!: number;
  @ApiPropertySchema(DATE_TIME) built_at!: string;
}

export class WikiPageDetailDto extends WikiPageDto {
  @ApiProperty({ description: 'Markdown: documents by evidence rank, related concepts' }) body!: string;
}

export class ConceptDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() key!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ enum: ['heading', 'term'] }) kind!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
  @ApiProperty({ type: 'integer' }) document_count!: number;
  @ApiPropertySchema(DATE_TIME) built_at!: string;
}

@ApiExtraModels(EvidenceLabelDto)
export class ConceptDetailDto extends ConceptDto {
  @ApiPropertySchema(
    arrayOf(
      obj({
        id: int,
        slug: str,
        title: str,
        project_key: str,
        source_path: str,
        source_type: str,
        occurrences: int,
        evidence: { $ref: getSchemaPath(EvidenceLabelDto) },
      }),
    ),
  )
  documents!: object[];
  @ApiPropertySchema(nullable(obj({ slug: str, title: str }))) page!: object | null;
}
