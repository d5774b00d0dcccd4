import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';

/** One problem of a refused request: the field it concerns and why. */
export class ErrorDetail {
  @ApiProperty({ description: 'Where the problem is (`query.page`, `body.artifact.claims.0.text`, `path.id`)', example: 'query.page' })
  path!: string;

  @ApiProperty({ example: 'must be at most 1000000' })
  message!: string;
}

export class ErrorContent {
  @ApiProperty({
    description: 'snake_case error code',
    examples: ['validation_error', 'unknown_profile', 'unknown_review', 'payload_too_large', 'llm_unavailable'],
    example: 'validation_error',
  })
  code!: string;

  @ApiProperty()
  message!: string;

  @ApiProperty({ type: [ErrorDetail], description: 'Every problem found (validation errors); empty otherwise' })
  details!: ErrorDetail[];
}

/** The area's error body (reference §1.14): `{ error: { code, message, details } }`. */
export class EvidenceErrorBody {
  @ApiProperty({ type: ErrorContent })
  error!: ErrorContent;
}

/** A non-2xx answer in the area's error shape. */
export const ApiEvidenceError = (status: number, description: string) => ApiResponse({ status, description, type: EvidenceErrorBody });

/** 401 without a valid iam token, 403 when it lacks evidence:review. */
export const ApiEvidenceGuarded = () =>
  applyDecorators(ApiEvidenceError(401, 'No or invalid bearer token'), ApiEvidenceError(403, 'The token lacks evidence:review'));
