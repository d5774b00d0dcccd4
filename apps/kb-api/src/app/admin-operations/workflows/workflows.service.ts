import { Injectable } from '@nestjs/common';
import { isRowId, pageWindow, toPage } from '../../admin/pagination';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbMessage } from '../../errors/kb-errors';
import { ListWorkflowsQueryDto, WORKFLOW_KINDS, WorkflowKind } from './workflows.dto';
import { WorkflowsRepository } from './workflows.repository';

export interface WorkflowStep {
  name: string;
  status: 'done' | 'pending' | 'failed' | 'skipped';
  at: Date | null;
  detail: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => new KbMessage(404, 'Workflow not found.');
const step = (name: string, status: WorkflowStep['status'], at: Date | null, detail: Record<string, unknown> = {}): WorkflowStep => ({ name, status, at, detail });

/** Workflows: one list over every flow kind, and each flow's steps with their timestamps. */
@Injectable()
export class WorkflowsService {
  constructor(private readonly workflows: WorkflowsRepository) {}

  async list(who: KbPrincipal, q: ListWorkflowsQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.workflows.page(who.tenantId, { kind: q.kind, status: q.status, from: q.from, to: q.to }, w);
    return toPage(rows, total, w);
  }

  async show(who: KbPrincipal, kind: string, id: string) {
    if (!(WORKFLOW_KINDS as readonly string[]).includes(kind)) throw notFound();
    const k = kind as WorkflowKind;
    if (k === 'promotion' ? !UUID.test(id) : !isRowId(id)) throw notFound();
    const summary = await this.workflows.one(who.tenantId, k, id);
    if (!summary) throw notFound();
    return { ...summary, steps: await this.steps(who.tenantId, k, id, summary.started_at, summary.finished_at, summary.status) };
  }

  private async steps(tenantId: string, kind: WorkflowKind, id: string, startedAt: Date, finishedAt: Date | null, status: string): Promise<WorkflowStep[]> {
    switch (kind) {
      case 'promotion': {
        const audit = await this.workflows.promotionAudit(tenantId, id);
        const doc = await this.workflows.promotionDocument(tenantId, id);
        const steps = audit.map((a) =>
          step(a.action, a.action === 'denied' || a.action === 'dispatch_failed' ? 'failed' : 'done', a.created_at, { actor_user_id: a.actor_user_id, actor_label: a.actor_label, ...a.detail }),
        );
        if (!audit.some((a) => a.action === 'requested')) steps.unshift(step('requested', 'done', startedAt));
        if (status === 'pending') steps.push(step('decision', 'pending', null));
        if (status === 'approved') {
          const indexed = doc?.status === 'indexed' ? 'done' : doc?.status === 'failed' ? 'failed' : 'pending';
          steps.push(step('indexed', indexed, doc?.indexed_at ?? null, { document_id: doc?.document_id ? Number(doc.document_id) : null, error: doc?.error ?? null }));
        }
        return steps;
      }
      case 'ingest': {
        const d = (await this.workflows.document(tenantId, id))!;
        return [
          step('accepted', 'done', d.created_at, { connector_type: d.connector_type }),
          step('latest version submitted', 'done', d.updated_at),
          d.status === 'failed'
            ? step('indexed', 'failed', d.updated_at, { error: d.error })
            : step('indexed', d.status === 'indexed' && !d.reindex_pending ? 'done' : 'pending', d.indexed_at, { chunks: d.chunk_count }),
        ];
      }
      case 'connector_sync': {
        const r = (await this.workflows.connectorRun(tenantId, id))!;
        const running = status === 'running';
        return [
          step('started', 'done', startedAt, { connector_id: Number(r.connector_id), kind: r.kind }),
          step('read source', running ? 'pending' : r.failed > 0 ? 'failed' : 'done', finishedAt, { seen: r.seen, failed: r.failed, errors: r.errors }),
          step('queued for ingest', running ? 'pending' : 'done', finishedAt, { queued: r.queued, skipped_unchanged: r.skipped_unchanged }),
          step('indexed', r.queued === 0 ? 'skipped' : r.index_failed > 0 ? 'failed' : r.pending > 0 ? 'pending' : 'done', null, { indexed: r.indexed, pending: r.pending, failed: r.index_failed }),
        ];
      }
      case 'command_run': {
        const c = (await this.workflows.commandRun(tenantId, id))!;
        return [
          step('started', 'done', startedAt, { trigger: c.trigger, params: c.params }),
          step('executed', status === 'running' ? 'pending' : status === 'failed' ? 'failed' : 'done', finishedAt, { result: c.result, error: c.error, duration_ms: c.duration_ms }),
        ];
      }
    }
  }
}
