import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** RFC 6749 §5.2: how every /oauth endpoint answers an error. */
export class OAuthErrorBody {
  @ApiProperty({ example: 'invalid_request', description: 'The RFC 6749 (or RFC 7591, 8707, 9449) error code' })
  error!: string;

  @ApiPropertyOptional({ example: 'grant_type is required', description: 'What was wrong, for the developer (names the field)' })
  error_description?: string;
}

/** RFC 9457 problem details: how the management API answers an error. */
export class ProblemBody {
  @ApiPropertyOptional() type?: string;
  @ApiPropertyOptional() title?: string;
  @ApiProperty() status!: number;
  @ApiPropertyOptional() detail?: string;
  @ApiPropertyOptional() code?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Per-field messages of a validation failure' }) errors?: Record<string, unknown>;
}

/** A passkey call the page's script could not complete. */
export class MessageBody {
  @ApiProperty() message!: string;
}
