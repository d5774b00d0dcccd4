import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Transform } from 'class-transformer';
import { ArrayMinSize, ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, Validate, ValidateIf, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { ApiPropertySchema, nullable } from '../../api-docs';
import { IsDateInput } from '../../validation/date-input';
import { MCP_SCOPES, McpScope } from '../mcp-scopes';
import { validationClock } from './validation-clock';

/** After now by the app's Clock (tests move it), on a route with ValidationClockInterceptor. */
@ValidatorConstraint({ name: 'future' })
class IsFuture implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && new Date(value).getTime() > validationClock().nowMs();
  }
}

export class CreateMcpTokenDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 120 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'The label field is required.' })
  @IsNotEmpty({ message: 'The label field is required.' })
  @MaxLength(120, { message: 'The label field must not be greater than 120 characters.' })
  label!: string;

  /** null is "never expires", as absent: the token's own `expires_at` reads null then. */
  @ApiPropertySchema(nullable({ type: 'string', format: 'date-time' }), { required: false, description: 'In the future; absent or null: never expires' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsDateInput('expires at')
  @Validate(IsFuture, { message: 'The expires at field must be a date after now.' })
  expires_at?: string | null;

  @ApiPropertyOptional({
    type: 'array',
    minItems: 1,
    maxItems: MCP_SCOPES.length,
    uniqueItems: true,
    items: { enum: [...MCP_SCOPES] },
    description: `Default: ${MCP_SCOPES.join(', ')}`,
  })
  @UnlessAbsent()
  @IsArray({ message: 'The scopes field must be an array.' })
  @ArrayMinSize(1, { message: 'The scopes field must have at least 1 item.' })
  @ArrayMaxSize(MCP_SCOPES.length, { message: `The scopes field must not have more than ${MCP_SCOPES.length} items.` })
  @ArrayUnique({ message: 'The scopes field must not repeat a scope.' })
  @IsIn(MCP_SCOPES, { each: true, message: `The selected scopes are invalid (each one of ${MCP_SCOPES.join(', ')}).` })
  scopes?: McpScope[];
}
