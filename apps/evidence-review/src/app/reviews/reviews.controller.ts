import { Controller, Get, HttpCode, Param, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal, JwtAuthGuard, Principal, Public, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { applyApiDocs, ReviewEngine, ReviewRequest, ReviewRequestDto, Verdict } from '@platform/evidence-engine';
import { ApiPublic, hasMediaType, LeanRoute, ServedOpenApiDocument } from '@platform/runtime';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ProfileDto, ProfilesDto, TaxonomyDto } from './dto/catalog.dto';
import { ApiEvidenceError, ApiEvidenceGuarded } from './dto/error-body.dto';
import { MAX_PER_PAGE, ReviewListQuery } from './dto/review-list.query';
import { ReviewPageDto } from './dto/review-page.dto';
import { ReviewResultDto } from './dto/review-result.dto';
import { EvidenceErrorFilter } from './evidence-error.filter';
import { EvidenceQuery } from './evidence-query';
import { ReviewRequestBody } from './review-request-body';
import { ReviewsService } from './reviews.service';

// The engine's request DTOs carry their OpenAPI documentation without loading @nestjs/swagger
// (api-docs.ts in the engine): this service publishes the API, so it hands it to swagger here,
// before the module graph (and the OpenAPI document built from it) sees the controller.
applyApiDocs({ ApiProperty, ApiPropertyOptional });

const tenantOf = (p: Principal) => p.tenantId ?? 'default';

/**
 * The HTTP adapter over the review engine (spec area D), mounted only when api.enabled. Callers
 * present an iam token with `evidence:review`; the token's tenant scopes the review log.
 */
@ApiTags('reviews')
@Controller('evidence-risk-review')
@UseGuards(JwtAuthGuard)
@RequireScopes(SCOPES.evidenceReview)
@UseFilters(EvidenceErrorFilter)
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly engine: ReviewEngine,
    private readonly served: ServedOpenApiDocument,
  ) {}

  @Post('reviews')
  @HttpCode(201)
  // JSON bodies also take the lean request path (docs/benchmarks.md).
  @LeanRoute({ accepts: hasMediaType('application/json') })
  @ApiEvidenceGuarded()
  @ApiOperation({
    summary: 'Review an artifact',
    description:
      "Labels each cited source's tier, runs the profile's deterministic checks (and, when enabled, the metered model step) and appends the result to the caller tenant's log unless `options.dry_run`. The body is validated against the engine's request DTO (reference §1.1); `details` names every bad field.",
  })
  @ApiBody({ type: ReviewRequestDto })
  @ApiCreatedResponse({ description: 'The review result', type: ReviewResultDto })
  @ApiEvidenceError(400, 'Malformed JSON')
  @ApiEvidenceError(404, 'Unknown profile')
  @ApiEvidenceError(413, 'Body over EVIDENCE_MAX_BODY_BYTES')
  @ApiEvidenceError(422, 'Validation failed; details name each field')
  @ApiEvidenceError(503, 'The language model is unavailable')
  review(@ReviewRequestBody() request: ReviewRequest, @CurrentPrincipal() principal: Principal) {
    return this.reviews.reviewRequest(tenantOf(principal), request);
  }

  @Get('reviews')
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: "The caller tenant's review log, newest first", description: 'A length-aware page; filters combine.' })
  @ApiQuery({ type: ReviewListQuery })
  @ApiOkResponse({ description: 'A page of log entries', type: ReviewPageDto })
  @ApiEvidenceError(422, 'A page number beyond 1,000,000; details name the parameter (`query.page`)')
  list(@EvidenceQuery() q: ReviewListQuery, @CurrentPrincipal() principal: Principal) {
    return this.reviews.list(tenantOf(principal), {
      page: q.page ?? 1,
      perPage: Math.min(MAX_PER_PAGE, q.per_page ?? 20),
      profile: q.profile,
      artifactId: q.artifact_id,
      minVerdict: q.min_verdict as Verdict | undefined,
    });
  }

  @Get('reviews/:id')
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: 'A stored review result, byte for byte', description: "Only the caller tenant's reviews; another tenant's id answers 404 like an unknown one." })
  @ApiParam({ name: 'id', description: 'A review_id', schema: { type: 'string', pattern: '^rev_[0-9a-f]{32}$' } })
  @ApiOkResponse({ description: 'The stored result', type: ReviewResultDto })
  @ApiEvidenceError(404, 'Unknown review')
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res() res: Response) {
    res.type('application/json').send(await this.reviews.get(tenantOf(principal), id));
  }

  @Get('profiles')
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: 'Risk profiles by key' })
  @ApiOkResponse({ description: 'Profile key → summary', type: ProfilesDto })
  profiles() {
    return this.engine.listProfiles();
  }

  @Get('profiles/:key')
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: 'One risk profile with its checks' })
  @ApiParam({ name: 'key', description: 'A profile key', schema: { type: 'string', example: 'medical' } })
  @ApiOkResponse({ description: 'The profile', type: ProfileDto })
  @ApiEvidenceError(404, 'Unknown profile')
  profile(@Param('key') key: string) {
    return this.engine.getProfile(key);
  }

  @Get('taxonomy')
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: 'Tiers, checks, verdicts and assertiveness values', description: 'Tiers as configured, by rank descending then key (reference §1.2).' })
  @ApiOkResponse({ description: 'The taxonomy', type: TaxonomyDto })
  taxonomy() {
    return this.engine.taxonomy();
  }

  @Get('openapi.json')
  @Public()
  @ApiPublic()
  @ApiOperation({ summary: 'This document', description: 'Generated from the running app: lists exactly the routes this process serves.' })
  @ApiOkResponse({ description: 'OpenAPI 3.1', schema: { type: 'object' } })
  openapi() {
    return this.served.document();
  }
}
