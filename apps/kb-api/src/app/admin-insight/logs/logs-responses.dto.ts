import { ApiProperty } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../../api-docs';
import { KB_QUEUE_NAMES } from './failed-jobs.service';
import { APPLICATION_LEVELS, MUTATION_METHODS, OUTCOMES, PROMOTION_AUDIT_ACTIONS } from './logs.dto';

const counts = { type: 'object', additionalProperties: { type: 'integer' } } as const;

/** A chat log as stored (PII masked or tokenized by the tenant's strategy). */
export class ChatLogDto {
  @ApiProperty()
  id!: string;

  @ApiPropertySchema(nullable({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } } }))
  user!: { id: string; name: string; email: string } | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  project_key!: string | null;

  @ApiProperty({ description: 'As stored: PII masked or tokenized by the strategy' })
  question!: string;

  @ApiProperty()
  answer!: string;

  @ApiProperty({ type: 'integer' })
  confidence!: number;

  @ApiPropertySchema(nullable({ type: 'string' }))
  refusal_reason!: string | null;

  @ApiProperty()
  refused!: boolean;

  @ApiPropertySchema(nullable({ type: 'string' }))
  provider!: string | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  model!: string | null;

  @ApiProperty({ type: 'integer' })
  latency_ms!: number;

  @ApiProperty({ ...counts, description: 'Findings per detector before redaction' })
  pii_hits!: Record<string, number>;

  @ApiProperty({ type: 'integer' })
  tokenized_values!: number;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;

  @ApiProperty({
    required: false,
    type: 'array',
    description: 'Detail only',
    items: { type: 'object', properties: { document_id: { type: 'integer' }, chunks: { type: 'array', items: { type: 'integer' } } } },
  })
  citations?: Array<{ document_id: number; chunks: number[] }>;
}

/** The original text of a chat log, tokenized values decrypted back in place. */
export class DetokenizedChatLogDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  question!: string;

  @ApiProperty()
  answer!: string;

  @ApiProperty({ type: 'integer' })
  restored_values!: number;

  @ApiProperty({ type: 'integer', description: 'Tokens whose key left the key ring' })
  unrecoverable!: number;
}

export class CanonicalAuditEntryDto {
  @ApiProperty()
  id!: string;

  @ApiPropertySchema(nullable({ type: 'string', format: 'uuid' }))
  approval_id!: string | null;

  @ApiProperty({ enum: PROMOTION_AUDIT_ACTIONS })
  action!: string;

  @ApiPropertySchema(nullable({ type: 'string' }))
  actor_user_id!: string | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  actor_label!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  detail!: Record<string, unknown>;

  @ApiPropertySchema(
    nullable({
      type: 'object',
      properties: { project_key: { type: 'string' }, source_path: { type: 'string' }, title: { type: 'string' }, status: { type: 'string' } },
    }),
  )
  approval!: Record<string, string> | null;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;
}

export class ApplicationLogEntryDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ enum: APPLICATION_LEVELS })
  level!: string;

  @ApiProperty()
  method!: string;

  @ApiProperty({ description: 'Route pattern' })
  route!: string;

  @ApiProperty({ type: 'integer' })
  status!: number;

  @ApiProperty()
  error_class!: string;

  @ApiPropertySchema(nullable({ type: 'string' }))
  error_code!: string | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  request_id!: string | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  user_id!: string | null;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;
}

export class ActivityLogEntryDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({
    type: 'object',
    properties: {
      kind: { enum: ['session', 'token', 'iam'] },
      id: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
    },
  })
  actor!: Record<string, string>;

  @ApiProperty({ enum: MUTATION_METHODS })
  method!: string;

  @ApiProperty({ description: 'Route pattern, e.g. /api/admin/users/:user' })
  route!: string;

  @ApiProperty({ type: 'integer' })
  status!: number;

  @ApiProperty({ enum: OUTCOMES })
  outcome!: string;

  @ApiPropertySchema(nullable({ type: 'string' }))
  target_id!: string | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  request_id!: string | null;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;
}

export class FailedJobDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ enum: KB_QUEUE_NAMES })
  queue!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;

  @ApiProperty()
  failed_reason!: string;

  @ApiProperty({ type: 'integer' })
  attempts_made!: number;

  @ApiProperty({ type: 'integer' })
  max_attempts!: number;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;

  @ApiPropertySchema(nullable(DATE_TIME))
  failed_at!: string | null;

  @ApiProperty({ type: 'array', items: { type: 'string' }, description: 'The last three' })
  stacktrace!: string[];
}

/** A failed job put back in its queue. */
export class RequeuedJobDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ enum: KB_QUEUE_NAMES })
  queue!: string;

  @ApiProperty()
  state!: string;
}
