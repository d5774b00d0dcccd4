import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { randomUUID } from 'node:crypto';
import { KbError } from '../errors/kb-errors';
import { IngestService } from '../ingest/ingest.service';
import { KbConfig } from '../../config/kb-config';
import { NotificationsService } from '../notifications/notifications.service';
import { hashApprovalToken, newApprovalToken } from './approval-token';
import { canonicalPath } from './canonical-types';
import { checkDraft, ParsedDraft } from './frontmatter';
import { PausedRun, PromotionRepository } from './promotion.repository';

export const PROMOTE_PERMISSION = 'kb.promote.any';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Decider {
  tenantId: string;
  userId: string;
  /** How the human authenticated (session or token), for the audit. */
  via: string;
  /** The name the caller gave for the audit, if any. */
  actor?: string;
}

const forbidden = () => new KbError(403, 'forbidden', 'This approval token is not valid for this promotion.');

/**
 * The promotion flow: a validated draft is paused at a human approval gate and nothing is written.
 * Approve and reject each claim the pending run with one conditional update (right token, not
 * expired, still pending), so concurrent decisions resolve to exactly one winner; only the
 * approving winner writes canonical storage and dispatches the ingest. Every decision, refused
 * ones included, is audited with its actor.
 */
@Injectable()
export class PromotionService {
  private readonly logger = new Logger('PromotionService');
  readonly enabled: boolean;
  private readonly ttlMinutes: number;
  private readonly appUrl: string;

  constructor(
    private readonly runs: PromotionRepository,
    private readonly ingest: IngestService,
    private readonly notifications: NotificationsService,
    config: KbConfig,
    private readonly clock: Clock,
  ) {
    this.enabled = config.get('KB_PROMOTION_ENABLED');
    this.ttlMinutes = config.get('KB_PROMOTION_APPROVAL_TTL_MIN');
    this.appUrl = config.appUrl;
  }

  assertEnabled(): void {
    if (!this.enabled) throw new KbError(503, 'promotion_disabled', 'Promotion is disabled on this installation.');
  }

  /** Validates and pauses: the answer carries the only copy of the approval token. */
  async promote(tenantId: string, userId: string | null, input: { project_key: string; markdown: string; title?: string }) {
    this.assertEnabled();
    const check = checkDraft(input.markdown);
    if (!check.valid) {
      const message = check.reason === 'no_frontmatter' ? 'The draft has no YAML frontmatter.' : 'The draft frontmatter is invalid.';
      throw new KbError(422, check.reason, message, { errors: check.errors });
    }
    const draft: ParsedDraft = check.parsed;
    const approvalId = randomUUID();
    const flowRunId = randomUUID();
    const { token, hash } = newApprovalToken();
    const sourcePath = canonicalPath(draft.type, draft.slug);
    const title = input.title ?? draft.title_line ?? draft.slug;
    const expiresAt = await this.runs.pause(
      { id: approvalId, tenantId, flowRunId, tokenHash: hash, expiresAt: new Date(this.clock.nowMs() + this.ttlMinutes * 60_000), projectKey: input.project_key, sourcePath, slug: draft.slug, canonicalType: draft.type, title, docId: draft.doc_id, markdown: input.markdown, requestedBy: userId },
      { tenantId, approvalId, action: 'requested', userId, detail: { project_key: input.project_key, path: sourcePath, slug: draft.slug, type: draft.type } },
    );
    await this.notifications.notify(tenantId, await this.notifications.holdersOf(tenantId, PROMOTE_PERMISSION), 'kb_promotion_awaiting_approval', {
      approval_id: approvalId,
      flow_run_id: flowRunId,
      project_key: input.project_key,
      slug: draft.slug,
      title,
      path: sourcePath,
      requested_by: userId === null ? null : Number(userId),
    });
    const approvePath = `/api/kb/promotion/${approvalId}/approve`;
    const rejectPath = `/api/kb/promotion/${approvalId}/reject`;
    return {
      status: 'paused' as const,
      flow_run_id: flowRunId,
      doc_id: draft.doc_id,
      slug: draft.slug,
      path: sourcePath,
      approval: {
        approval_id: approvalId,
        token,
        expires_at: expiresAt.toISOString(),
        approve_url: this.appUrl + approvePath,
        reject_url: this.appUrl + rejectPath,
        approve_path: approvePath,
        reject_path: rejectPath,
      },
    };
  }

  async approve(approvalId: string, token: string, who: Decider) {
    const run = await this.claim(approvalId, token, who, 'approved', null);
    let documentId: number | undefined;
    let failure: string | undefined;
    try {
      const result = await this.ingest.ingest(who.tenantId, [
        {
          project_key: run.project_key,
          source_path: run.source_path,
          title: run.title,
          mime_type: 'text/markdown',
          content: run.markdown,
          metadata: {
            canonical_type: run.canonical_type,
            slug: run.slug,
            doc_id: run.doc_id,
            promotion: { approval_id: run.id, flow_run_id: run.flow_run_id, requested_by: run.requested_by === null ? null : Number(run.requested_by), approved_by: Number(who.userId) },
          },
        },
      ]);
      const [entry] = result.documents;
      if (entry.status === 'queued') documentId = entry.document_id;
      else failure = entry.error ?? 'the document was not queued';
    } catch (e) {
      failure = (e as Error).message;
      this.logger.error(`promotion ${run.id} could not be dispatched: ${failure}`);
    }
    if (documentId === undefined) {
      await this.runs.markFailed(who.tenantId, run.id, { tenantId: who.tenantId, approvalId: run.id, action: 'dispatch_failed', userId: who.userId, actor: who.actor, detail: { via: who.via, error: failure } });
      await this.notifications.notify(who.tenantId, [run.requested_by, who.userId], 'kb_ingest_failed', { approval_id: run.id, project_key: run.project_key, source_path: run.source_path, error: failure });
      return { accepted: false as const, body: { status: 'failed', flow_run_id: run.flow_run_id, approval_id: run.id, failed_step: 'write_canonical' } };
    }
    await this.runs.recordDocument(who.tenantId, run.id, documentId);
    await this.notifications.notify(who.tenantId, [run.requested_by], 'kb_canonical_promoted', {
      approval_id: run.id,
      document_id: documentId,
      project_key: run.project_key,
      path: run.source_path,
      slug: run.slug,
      title: run.title,
      approved_by: Number(who.userId),
    });
    return { accepted: true as const, body: { status: 'accepted', flow_run_id: run.flow_run_id, approval_id: run.id, path: run.source_path, document_id: documentId } };
  }

  /** The paused run is dropped: its draft is erased and nothing is written. */
  async reject(approvalId: string, token: string, who: Decider, reason: string | undefined) {
    const run = await this.claim(approvalId, token, who, 'rejected', reason ?? null);
    await this.notifications.notify(who.tenantId, [run.requested_by], 'kb_promotion_rejected', {
      approval_id: run.id,
      project_key: run.project_key,
      slug: run.slug,
      title: run.title,
      reason: reason ?? null,
      rejected_by: Number(who.userId),
    });
    return { status: 'rejected', flow_run_id: run.flow_run_id, approval_id: run.id };
  }

  /** Decides the run or, refused, answers 403 `forbidden` (the refusal is audited too). */
  private async claim(approvalId: string, token: string, who: Decider, outcome: 'approved' | 'rejected', reason: string | null): Promise<PausedRun> {
    const audit = { tenantId: who.tenantId, userId: who.userId, actor: who.actor, detail: { via: who.via, ...(reason ? { reason } : {}) } };
    if (!UUID.test(approvalId)) {
      await this.runs.auditRefusal({ ...audit, approvalId: null, action: 'denied', detail: { ...audit.detail, attempted: outcome } });
      throw forbidden();
    }
    const run = await this.runs.claim({ approvalId, tenantId: who.tenantId, tokenHash: hashApprovalToken(token), outcome, userId: who.userId, reason, at: this.clock.now() }, { ...audit, detail: { ...audit.detail, attempted: outcome } });
    if (!run) throw forbidden();
    return run;
  }
}
