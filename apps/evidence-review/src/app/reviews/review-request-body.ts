import { createParamDecorator, ExecutionContext, PipeTransform } from '@nestjs/common';
import { parseReviewRequest, ReviewRequest } from '@platform/evidence-engine';
import type { Request } from 'express';

/**
 * Validates a review request body against the engine's ReviewRequestDto (parseReviewRequest, the
 * same validation the CLI and the MCP assess tool use): a refusal is the engine's
 * EvidenceValidationError, answered 422 validation_error by EvidenceErrorFilter with every field.
 */
export class ReviewRequestPipe implements PipeTransform<unknown, ReviewRequest> {
  transform(body: unknown): ReviewRequest {
    return parseReviewRequest(body);
  }
}

/**
 * The request body as the ReviewRequest its DTO validation yields (defaults filled in). A custom
 * parameter rather than `@Body()`: the platform's global pipe (strict, unknown fields refused, its
 * own messages) would judge a DTO-typed body first, in another shape. Document the body with
 * `@ApiBody({ type: ReviewRequestDto })` beside it.
 */
export const ReviewRequestBody = (): ParameterDecorator =>
  createParamDecorator((_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().body)(undefined, new ReviewRequestPipe());
