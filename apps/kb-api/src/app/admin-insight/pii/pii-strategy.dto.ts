import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString } from 'class-validator';
import { ApiPropertySchema, DATE_TIME, nullable } from '../../api-docs';
import { PERMISSIONS } from '../../identity/rbac';
import { PII_ACTIONS, PII_DETECTORS } from './pii-policy';

/** PUT /api/admin/pii/strategy: detector → keep | mask | tokenize (checked per detector by the service). */
export class PutPiiStrategyDto {
  @ApiPropertySchema({
    type: 'object',
    description: 'detector → action; detectors not named keep theirs',
    additionalProperties: { enum: [...PII_ACTIONS] },
    propertyNames: { enum: [...PII_DETECTORS] },
  })
  @IsObject({ message: 'The actions field must be an object of detector: action.' })
  actions!: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: PERMISSIONS,
    description:
      'The setting kb.pii_redactor.detokenize_permission (default pii.detokenize). Changing it needs the permission in force and the new one.',
  })
  @IsOptional()
  @IsString({ message: 'The detokenize permission field must be a string.' })
  detokenize_permission?: string;
}

/** The tenant's PII strategy as answered by GET and PUT. */
export class PiiStrategyDto {
  @ApiProperty({ type: 'object', description: 'detector → action', additionalProperties: { enum: [...PII_ACTIONS] } })
  actions!: Record<string, string>;

  @ApiProperty()
  detokenize_permission!: string;

  @ApiProperty({ type: 'array', items: { enum: [...PII_DETECTORS] } })
  detectors!: string[];

  @ApiProperty({ type: 'array', items: { enum: [...PII_ACTIONS] } })
  available_actions!: string[];

  @ApiPropertySchema(nullable(DATE_TIME))
  updated_at!: string | null;

  @ApiPropertySchema(nullable({ type: 'string' }))
  updated_by!: string | null;
}
