import { Injectable } from '@nestjs/common';
import { EvidenceError, parseReviewRequest, ReviewEngine, ReviewRequest, ReviewResult } from '@platform/evidence-engine';
import { ReviewListQuery, ReviewLogRepository } from './review-log.repository';

/** Use cases of the HTTP adapter: the engine does the review, the log keeps it per tenant. */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly engine: ReviewEngine,
    private readonly log: ReviewLogRepository,
  ) {}

  /** Reviews an untrusted request (the MCP assess tool's arguments), validated here. */
  async review(tenantId: string, input: unknown): Promise<ReviewResult> {
    return this.reviewRequest(tenantId, parseReviewRequest(input));
  }

  /** Reviews a request already validated at the edge (POST /reviews' body). */
  async reviewRequest(tenantId: string, request: ReviewRequest): Promise<ReviewResult> {
    // The caller's tenant, not the artifact's claim, decides where the review is logged.
    request.artifact.tenant_id = tenantId;
    const result = await this.engine.reviewRequest(request);
    if (!result.metadata.dry_run) await this.log.append(tenantId, { artifact: request.artifact, options: request.options, result });
    return result;
  }

  list(tenantId: string, q: ReviewListQuery) {
    return this.log.list(tenantId, q);
  }

  /** The stored result's JSON text, unchanged. */
  async get(tenantId: string, reviewId: string): Promise<string> {
    const found = await this.log.find(tenantId, reviewId);
    if (!found) throw new EvidenceError('unknown_review', 404, `Unknown review [${reviewId}].`);
    return found;
  }
}
