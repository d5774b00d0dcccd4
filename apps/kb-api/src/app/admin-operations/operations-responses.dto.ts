import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../api-docs';
import { CONNECTOR_CONFIG_SCHEMA, CONNECTOR_KINDS } from './connectors/connectors.dto';
import { WORKFLOW_KINDS } from './workflows/workflows.dto';

/** The answers of the admin operations routes, as the document describes them. */
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const obj = (properties: Record<string, object>, required?: string[]) => ({ type: 'object' as const, properties, ...(required ? { required } : {}) });
const counts = { type: 'object' as const, additionalProperties: { type: 'integer', minimum: 0 } };
const anyObject = { type: 'object' as const, additionalProperties: true };
const actor = nullable(obj({ id: str, name: str, email: str }));

export class OpsCommandDto {
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() destructive!: boolean;
  @ApiProperty({ description: 'Whether the caller may run it (a destructive one also needs commands.destructive)' }) allowed!: boolean;
  @ApiPropertySchema({
    type: 'array',
    items: obj(
      {
        name: str,
        type: { enum: ['integer', 'boolean', 'string'] },
        description: str,
        required: { type: 'boolean' },
        default: { type: ['integer', 'boolean', 'string'] },
        minimum: int,
        maximum: int,
        maxLength: int,
        pattern: str,
      },
      ['name', 'type', 'description'],
    ),
  })
  params!: object[];
}

export class OpsCommandPreviewDto {
  @ApiProperty() command!: string;
  @ApiProperty() destructive!: boolean;
  @ApiPropertySchema(anyObject) params!: object;
  @ApiPropertySchema(counts) would_change!: Record<string, number>;
}

export class OpsCommandRunDto {
  @ApiProperty() id!: string;
  @ApiProperty() command!: string;
  @ApiPropertySchema(anyObject) params!: object;
  @ApiProperty({ enum: ['running', 'succeeded', 'failed'] }) status!: string;
  @ApiPropertySchema(counts) result!: Record<string, number>;
  @ApiPropertySchema(nullable(str)) error!: string | null;
  @ApiProperty({ enum: ['api', 'schedule'] }) trigger!: string;
  @ApiPropertySchema(actor) actor!: object | null;
  @ApiPropertySchema(nullable(str)) idempotency_key!: string | null;
  @ApiPropertySchema(DATE_TIME) started_at!: string;
  @ApiPropertySchema(nullable(DATE_TIME)) finished_at!: string | null;
  @ApiPropertySchema(nullable(int)) duration_ms!: number | null;
}

export class OpsCommandScheduleDto {
  @ApiProperty() command!: string;
  @ApiProperty({ description: 'Five fields, UTC' }) cron!: string;
  @ApiProperty({ enum: ['Etc/UTC'] }) timezone!: string;
  @ApiPropertySchema(anyObject) params!: object;
  @ApiProperty({ description: 'What the CronJob runs: `node cli.js <cli_task>`' }) cli_task!: string;
  @ApiPropertySchema(
    nullable(obj({ id: str, status: str, trigger: str, started_at: DATE_TIME, finished_at: nullable(DATE_TIME), result: counts })),
  )
  last_run!: object | null;
  @ApiPropertySchema(nullable(DATE_TIME)) next_due_at!: string | null;
  @ApiProperty({ description: 'No run since the schedule last fired' }) overdue!: boolean;
}

export class OpsConnectorRunDto {
  @ApiProperty() id!: string;
  @ApiProperty() connector_id!: string;
  @ApiProperty({ enum: ['running', 'succeeded', 'partial', 'failed'] }) status!: string;
  @ApiProperty({ type: 'integer', description: 'Documents found in the source' }) seen!: number;
  @ApiProperty({ type: 'integer', description: 'Stored and queued for indexing' }) queued!: number;
  @ApiProperty({ type: 'integer' }) skipped_unchanged!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
  @ApiPropertySchema({ type: 'array', items: obj({ source_path: str, error: str }) }) errors!: object[];
  @ApiProperty({ type: [Number] }) document_ids!: number[];
  @ApiPropertySchema(nullable(str)) triggered_by!: string | null;
  @ApiPropertySchema(DATE_TIME) started_at!: string;
  @ApiPropertySchema(nullable(DATE_TIME)) finished_at!: string | null;
}

@ApiExtraModels(OpsConnectorRunDto)
export class OpsConnectorDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: CONNECTOR_KINDS }) kind!: string;
  @ApiProperty() project_key!: string;
  @ApiPropertySchema(CONNECTOR_CONFIG_SCHEMA) config!: object;
  @ApiProperty() enabled!: boolean;
  @ApiPropertySchema(nullable(str)) created_by!: string | null;
  @ApiPropertySchema(nullable(DATE_TIME)) last_synced_at!: string | null;
  @ApiPropertySchema({ oneOf: [{ $ref: getSchemaPath(OpsConnectorRunDto) }, { type: 'null' }] }) last_run!: OpsConnectorRunDto | null;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

export class OpsTabularCellDto {
  @ApiProperty({ enum: ['answered', 'no_answer'] }) status!: string;
  @ApiPropertySchema(nullable(str)) answer!: string | null;
  @ApiPropertySchema(
    nullable(
      obj({ chunk_id: int, document_id: int, source_path: str, title: str, heading_path: nullable(str), quote: str, score: { type: 'number' } }),
    ),
  )
  citation!: object | null;
  @ApiPropertySchema(DATE_TIME) answered_at!: string;
}

export class OpsTabularReviewSummaryDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiPropertySchema(nullable(str)) project_key!: string | null;
  @ApiProperty({ enum: ['draft', 'completed', 'failed'] }) status!: string;
  @ApiProperty({ type: 'integer' }) document_count!: number;
  @ApiProperty({ type: 'integer' }) column_count!: number;
  @ApiPropertySchema(nullable(obj({ id: str, name: str }))) created_by!: object | null;
  @ApiPropertySchema(nullable(DATE_TIME)) last_run_at!: string | null;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

@ApiExtraModels(OpsTabularCellDto)
export class OpsTabularReviewDto extends OpsTabularReviewSummaryDto {
  @ApiPropertySchema({ type: 'array', items: obj({ index: int, label: str, question: str }) }) columns!: object[];
  @ApiPropertySchema({
    type: 'array',
    items: obj({
      document: obj({ id: int, title: nullable(str), source_path: nullable(str), project_key: nullable(str), deleted: { type: 'boolean' } }),
      cells: {
        type: 'array',
        description: 'One per column; null until the review runs',
        items: { oneOf: [{ $ref: getSchemaPath(OpsTabularCellDto) }, { type: 'null' }] },
      },
    }),
  })
  rows!: object[];
}

export class OpsWorkflowDto {
  @ApiProperty({ enum: WORKFLOW_KINDS }) kind!: string;
  @ApiProperty() id!: string;
  @ApiProperty() status!: string;
  @ApiProperty() title!: string;
  @ApiPropertySchema(DATE_TIME) started_at!: string;
  @ApiPropertySchema(nullable(DATE_TIME)) finished_at!: string | null;
  @ApiPropertySchema(nullable(obj({ id: str, name: str }))) actor!: object | null;
}

export class OpsWorkflowDetailDto extends OpsWorkflowDto {
  @ApiPropertySchema({
    type: 'array',
    items: obj({ name: str, status: { enum: ['done', 'pending', 'failed', 'skipped'] }, at: nullable(DATE_TIME), detail: anyObject }),
  })
  steps!: object[];
}
