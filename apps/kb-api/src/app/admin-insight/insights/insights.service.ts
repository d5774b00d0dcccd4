import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { Page, pageWindow } from '../../admin/pagination';
import { RangeQueryDto } from '../range-query.dto';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbValidationError } from '../../errors/kb-errors';
import { ComputeInsightsDto } from './insights.dto';
import { InsightData, InsightSnapshot, InsightsRepository } from './insights.repository';

export const INSIGHT_DEFAULT_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

/** Insight snapshots: computed on demand from the tenant's chat logs, documents and feedback, then kept. */
@Injectable()
export class InsightsService {
  constructor(
    private readonly insights: InsightsRepository,
    private readonly clock: Clock,
  ) {}

  latest(tenantId: string): Promise<InsightSnapshot | null> {
    return this.insights.latest(tenantId);
  }

  history(
    tenantId: string,
    q: RangeQueryDto,
  ): Promise<Page<Omit<InsightSnapshot, 'data'> & { totals: InsightData['totals'] }>> {
    return this.insights.history(tenantId, q, pageWindow(q));
  }

  async compute(
    p: KbPrincipal,
    body: ComputeInsightsDto,
  ): Promise<InsightSnapshot> {
    const to = body.to ? new Date(body.to) : this.clock.now();
    const from = body.from
      ? new Date(body.from)
      : new Date(to.getTime() - INSIGHT_DEFAULT_DAYS * DAY_MS);
    if (from > to)
      throw new KbValidationError({
        from: ['The from field must be a date before or equal to to.'],
      });
    const period = { from, to };
    return this.insights.store(
      p.tenantId,
      period,
      await this.insights.compute(p.tenantId, period),
      p.userId,
    );
  }
}
