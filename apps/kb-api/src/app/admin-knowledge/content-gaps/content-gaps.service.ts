import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { pageWindow, toPage } from '../../admin/pagination';
import { KbError } from '../../errors/kb-errors';
import { KnowledgeSettingsService } from '../settings/settings.service';
import { ContentGapsRepository } from './content-gaps.repository';
import { DEFAULT_GAP_DAYS, ListContentGapsQueryDto } from './content-gaps.dto';

const DAY_MS = 86_400_000;
/** Resolving looks this far back for the gap's questions (the longest list window). */
const RESOLVE_WINDOW_DAYS = 365;

/** Questions the knowledge base could not answer well, grouped; the confidence threshold is the analysis settings'. */
@Injectable()
export class ContentGapsService {
  constructor(
    private readonly gaps: ContentGapsRepository,
    private readonly settings: KnowledgeSettingsService,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, q: ListContentGapsQueryDto) {
    const days = q.days ?? DEFAULT_GAP_DAYS;
    const { low_confidence_threshold } = await this.settings.of(tenantId, 'analysis');
    const w = pageWindow(q);
    const { rows, total } = await this.gaps.list(tenantId, new Date(this.clock.nowMs() - days * DAY_MS), low_confidence_threshold, w);
    return { ...toPage(rows, total, w), days, low_confidence_threshold };
  }

  async resolve(tenantId: string, userId: string | null, id: string, note: string | null) {
    const { low_confidence_threshold } = await this.settings.of(tenantId, 'analysis');
    const question = /^[0-9a-f]{32}$/.test(id) ? await this.gaps.openQuestion(tenantId, id, new Date(this.clock.nowMs() - RESOLVE_WINDOW_DAYS * DAY_MS), low_confidence_threshold) : null;
    if (question === null) throw new KbError(404, 'not_found', 'Content gap not found.');
    return { data: await this.gaps.resolve(tenantId, id, question, note, userId) };
  }
}
