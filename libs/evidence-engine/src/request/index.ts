export { applyApiDocs } from './api-docs';
export { parseReviewRequest, parseSource } from './parse-review-request';
export {
  ArtifactDto,
  BudgetCapsDto,
  ClaimDto,
  ReviewOptionsDto,
  ReviewRequestDto,
  SourceDto,
} from './review-request.dto';
