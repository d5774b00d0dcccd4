import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal, JwtAuthGuard, Principal, Public, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { ReviewEngine, Verdict } from '@platform/evidence-engine';
import { ValidationFailedError } from '@platform/observability';
import { EvidenceErrorFilter } from './evidence-error.filter';
import { EVIDENCE_OPENAPI } from './openapi';
import { ReviewsService } from './reviews.service';

const tenantOf = (p: Principal) => p.tenantId ?? 'default';
/** Pages past this hold nothing anyone can reach; the bound keeps the offset a number SQL takes. */
const MAX_PAGE = 1_000_000;

/**
 * A list parameter: anything but digits keeps the default (the log's lenient paging); digits
 * beyond MAX_PAGE (`99999999999999999999`) are refused naming the parameter instead of reaching SQL.
 */
const positiveInt = (v: unknown, name: string, fallback: number) => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (n > MAX_PAGE) throw new ValidationFailedError([{ field: `query.${name}`, message: `must be at most ${MAX_PAGE}` }]);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/**
 * The HTTP adapter over the review engine (spec area D), mounted only when api.enabled. Callers
 * present an iam token with `evidence:review`; the token's tenant scopes the review log.
 */
@Controller('evidence-risk-review')
@UseGuards(JwtAuthGuard)
@RequireScopes(SCOPES.evidenceReview)
@UseFilters(EvidenceErrorFilter)
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly engine: ReviewEngine,
  ) {}

  @Post('reviews')
  @HttpCode(201)
  review(@Body() body: unknown, @CurrentPrincipal() principal: Principal) {
    return this.reviews.review(tenantOf(principal), body);
  }

  @Get('reviews')
  list(@Query() q: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const one = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return this.reviews.list(tenantOf(principal), {
      page: positiveInt(q['page'], 'page', 1),
      perPage: Math.min(100, positiveInt(q['per_page'], 'per_page', 20)),
      profile: one(q['profile']),
      artifactId: one(q['artifact_id']),
      minVerdict: one(q['min_verdict']) as Verdict | undefined,
    });
  }

  @Get('reviews/:id')
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res() res: Response) {
    res.type('application/json').send(await this.reviews.get(tenantOf(principal), id));
  }

  @Get('profiles')
  profiles() {
    return this.engine.listProfiles();
  }

  @Get('profiles/:key')
  profile(@Param('key') key: string) {
    return this.engine.getProfile(key);
  }

  @Get('taxonomy')
  taxonomy() {
    return this.engine.taxonomy();
  }

  @Get('openapi.json')
  @Public()
  openapi() {
    return EVIDENCE_OPENAPI;
  }
}
