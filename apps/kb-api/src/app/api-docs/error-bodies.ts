import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** `{message}`: a guest (401 `Unauthenticated.`), a conflict, a plain refusal (reference kb §2.1). */
export class MessageBody {
  @ApiProperty({ example: 'Unauthenticated.' })
  message!: string;
}

/** `{error, message}`: a refusal with a snake_case code (`not_found`, `tenant_forbidden`, …). */
export class ErrorBody {
  @ApiPropertyOptional({ description: 'snake_case code, when the error has one', example: 'not_found' })
  error?: string;

  @ApiProperty()
  message!: string;
}

/** `{message, errors}`: a validation failure, every message under the field it names (422, some 429s). */
export class ValidationErrorBody {
  @ApiProperty({ example: 'The name field is required.' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { name: ['The name field is required.'] },
  })
  errors!: Record<string, string[]>;
}
