import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../../api-docs';
import { OPEN_STATUSES, SESSION_STATUSES } from '../widget-catalog';
import { WidgetThemeDto } from './widget-keys.dto';

/** The answers of the widget routes, as the document describes them. */
const str = { type: 'string' } as const;
const anyObject = { type: 'object' as const, additionalProperties: true };
const sessionRef = { type: 'object' as const, properties: { id: { type: 'string', format: 'uuid' }, status: { enum: [...SESSION_STATUSES] } } };

export class WidgetKeyDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() label!: string;
  @ApiProperty() project_key!: string;
  @ApiProperty({ pattern: '^pk_' }) public_key!: string;
  @ApiProperty({ type: [String] }) allowed_origins!: string[];
  @ApiProperty({ type: 'integer', description: 'Requests a minute per key and client IP' }) rate_limit!: number;
  @ApiProperty({ description: 'name@N' }) skill!: string;
  @ApiProperty() host_tools_enabled!: boolean;
  @ApiProperty() user_auth_enabled!: boolean;
  @ApiProperty({ type: () => WidgetThemeDto }) theme!: WidgetThemeDto;
  @ApiProperty() has_identity_secret!: boolean;
  @ApiProperty() active!: boolean;
  @ApiPropertySchema(nullable(DATE_TIME)) revoked_at!: string | null;
  @ApiProperty({ type: 'integer' }) identity_credential_version!: number;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

export class CreatedWidgetKeyDto {
  @ApiProperty({ type: () => WidgetKeyDto }) data!: WidgetKeyDto;
  @ApiProperty({ pattern: '^sk_', description: 'Shown once' }) plain_secret!: string;
  @ApiProperty({ pattern: '^pk_' }) public_key!: string;
  @ApiPropertyOptional({ pattern: '^wis_', description: 'Only with user_auth_enabled; shown once' }) identity_secret?: string;
}

export class RotatedWidgetKeyDto {
  @ApiProperty({ type: () => WidgetKeyDto }) data!: WidgetKeyDto;
  @ApiProperty({ pattern: '^sk_', description: 'Shown once' }) plain_secret!: string;
}

export class RotatedIdentitySecretDto {
  @ApiProperty({ type: () => WidgetKeyDto }) data!: WidgetKeyDto;
  @ApiProperty({ pattern: '^wis_', description: 'Shown once' }) identity_secret!: string;
}

export class WidgetSessionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer' }) key_id!: number;
  @ApiProperty() key_label!: string;
  @ApiProperty() project_key!: string;
  @ApiProperty({ enum: SESSION_STATUSES }) status!: string;
  @ApiPropertySchema(nullable(str)) origin!: string | null;
  @ApiPropertySchema(nullable(str)) page_url!: string | null;
  @ApiProperty({ type: 'integer' }) step_count!: number;
  @ApiProperty() has_identity!: boolean;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

export class WidgetStepDto {
  @ApiProperty({ type: 'integer' }) step_index!: number;
  @ApiProperty({ enum: ['start', 'message', 'answer', 'blocked', 'tool_call', 'tool_result', 'tool_refused', 'cancel'] }) kind!: string;
  @ApiPropertySchema(nullable(str)) tool!: string | null;
  @ApiPropertySchema({ description: 'Masked arguments or text' }) args_json!: unknown;
  @ApiPropertySchema({ description: 'Outcome details (confidence, refusal reason, violations)' }) diagnostic_json!: unknown;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
}

export class WidgetSessionReplayDto {
  @ApiProperty({ type: () => WidgetSessionDto }) session!: WidgetSessionDto;
  @ApiProperty({ type: () => [WidgetStepDto] }) steps!: WidgetStepDto[];
}

export class WidgetPublicReplayDto {
  @ApiPropertySchema(sessionRef) session!: object;
  @ApiProperty({ type: () => [WidgetStepDto] }) steps!: WidgetStepDto[];
}

export class WidgetSetupDto {
  @ApiPropertySchema({ type: 'object', properties: { name: str, version: { type: 'integer' }, ref: str, description: str } }) skill!: object;
  @ApiPropertySchema({ type: 'object', properties: { key: str, name: str } }) project!: object;
  @ApiProperty({ type: [String] }) tools_enabled!: string[];
  @ApiPropertySchema({ type: 'array', items: anyObject }) auto_annotation_rules!: object[];
  @ApiPropertySchema(anyObject) default_policies!: object;
  @ApiProperty() default_locale!: string;
  @ApiProperty() user_auth_enabled!: boolean;
  @ApiProperty({ type: () => WidgetThemeDto }) theme!: WidgetThemeDto;
}

export class WidgetTokenDto {
  @ApiProperty() token!: string;
  @ApiPropertySchema(DATE_TIME) expires_at!: string;
}

export class WidgetUserTokenDto extends WidgetTokenDto {
  @ApiPropertyOptional() locale?: string;
}

export class WidgetReplyDto {
  @ApiPropertySchema(sessionRef) session!: object;
  @ApiProperty({ enum: ['message', 'tool_call', 'blocked'] }) type!: string;
  @ApiPropertySchema({ ...nullable(str), description: 'type message: the grounded answer (null when no message was sent)' }, { required: false })
  answer?: string | null;
  @ApiPropertySchema({ type: 'array', items: anyObject, description: 'type message: as in POST /api/kb/chat' }, { required: false }) citations?: object[];
  @ApiPropertyOptional({ type: 'integer' }) confidence?: number;
  @ApiPropertySchema(anyObject, { required: false }) meta?: object;
  @ApiPropertySchema(
    {
      type: 'object',
      properties: { tool: str, args: anyObject, confirmation_required: { type: 'boolean' }, is_be_tool: { type: 'boolean' }, is_host_tool: { type: 'boolean' } },
    },
    { required: false },
  )
  tool_call?: object;
  @ApiPropertyOptional({ description: 'type blocked: the refusal' }) reason?: string;
}

export class WidgetOpenSessionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: OPEN_STATUSES }) status!: string;
  @ApiPropertySchema(nullable(str)) page_url!: string | null;
  @ApiProperty({ type: 'integer' }) step_count!: number;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
  @ApiPropertySchema(DATE_TIME) updated_at!: string;
}

export class WidgetOpenSessionsDto {
  @ApiProperty({ type: () => [WidgetOpenSessionDto] }) data!: WidgetOpenSessionDto[];
}

export class WidgetToolOutcomeDto {
  @ApiPropertySchema(sessionRef) session!: object;
  @ApiProperty({ enum: ['tool_result', 'tool_refused'] }) type!: string;
  @ApiProperty() tool!: string;
  @ApiPropertySchema(anyObject, { required: false }) result?: object;
  @ApiPropertyOptional() reason?: string;
  @ApiPropertySchema({ type: 'object', additionalProperties: { type: 'string' } }, { required: false }) violations?: object;
  @ApiPropertyOptional() message?: string;
}

export class WidgetCancelledDto {
  @ApiPropertySchema({ type: 'object', properties: { id: { type: 'string', format: 'uuid' }, status: { enum: ['aborted'] } } }) session!: object;
}
