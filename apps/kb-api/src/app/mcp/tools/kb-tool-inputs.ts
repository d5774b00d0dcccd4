import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ROW_ID_MAX } from '../../admin/pagination';
import { CANONICAL_STATUSES, CANONICAL_TYPES } from '../../promotion/canonical-types';

/**
 * The arguments of the built-in server's tools, one DTO per tool: validated like a request body
 * (unknown arguments refused, strings trimmed where noted, defaults from initial values) and
 * published in tools/list as the JSON Schema derived from the same class.
 */

export const EDGE_TYPES = ['links_to', 'linked_from'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];
export const STATUS_FILTERS = [...CANONICAL_STATUSES, 'any'] as const;

const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
/** May be left out; sent, it must be valid (null too is refused: the schema's type has no null). */
const Omittable = () => ValidateIf((_object, value) => value !== undefined);
const Text = (min: number, max: number) => applyDecorators(trimmed(), IsString(), MinLength(min), MaxLength(max));
const ProjectKey = () => applyDecorators(JSONSchema({ description: 'Project key, e.g. "platform"' }), Text(1, 120));
const Slug = () => Text(1, 200);
const SearchText = () => applyDecorators(JSONSchema({ description: 'What to look for, in natural language or keywords' }), Text(2, 500));
const RowId = () => applyDecorators(IsInt(), Min(1), Max(ROW_ID_MAX));
const Limit = (max: number) => applyDecorators(IsInt(), Min(1), Max(max));

export class KbSearchInput {
  @SearchText() query!: string;
  @Omittable() @ProjectKey() project_key?: string;
  @Limit(20) limit = 6;
}

export class KbSearchByProjectInput {
  @ProjectKey() project_key!: string;
  @SearchText() query!: string;
  @Limit(20) limit = 6;
}

export class KbReadDocumentInput {
  @RowId() document_id!: number;
}

export class KbReadChunkInput {
  @RowId() chunk_id!: number;
}

export class KbRecentChangesInput {
  @Omittable() @ProjectKey() project_key?: string;
  @Limit(50) limit = 10;
}

export class KbDocumentBySlugInput {
  @Slug() slug!: string;
  @ProjectKey() project_key!: string;
  @IsBoolean() include_chunks = true;
}

export class KbDocumentsByTypeInput {
  @IsIn(CANONICAL_TYPES) type!: string;
  @ProjectKey() project_key!: string;
  @IsIn(STATUS_FILTERS) status_filter = 'accepted';
  @Limit(100) limit = 20;
}

export class KbGraphNeighborsInput {
  @JSONSchema({ description: 'The document slug' }) @Slug() node_uid!: string;
  @ProjectKey() project_key!: string;
  @Omittable() @IsArray() @ArrayMinSize(1) @IsIn(EDGE_TYPES, { each: true }) edge_types?: EdgeType[];
  @Limit(100) limit = 25;
}

export class KbGraphSubgraphInput {
  @Slug() seed_slug!: string;
  @ProjectKey() project_key!: string;
  @IsInt() @Min(1) @Max(3) hops = 2;
  @Limit(100) max_nodes = 25;
}

/** The limits of POST /api/kb/promotion/suggest. */
export class KbPromotionSuggestInput {
  @Text(1, 50_000) transcript!: string;
  @Omittable() @ProjectKey() project_key?: string;
  @Omittable() @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(200, { each: true }) existing_slugs?: string[];
}
