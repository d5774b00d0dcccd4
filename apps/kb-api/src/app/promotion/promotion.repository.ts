import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A paused run as the deciding step needs it. */
export interface PausedRun {
  id: string;
  tenant_id: string;
  flow_run_id: string;
  project_key: string;
  source_path: string;
  slug: string;
  canonical_type: string;
  title: string;
  doc_id: string | null;
  markdown: string;
  requested_by: string | null;
}

export interface NewPausedRun {
  id: string;
  tenantId: string;
  flowRunId: string;
  tokenHash: string;
  /** When the approval token lapses (the service's clock plus the configured lifetime). */
  expiresAt: Date;
  projectKey: string;
  sourcePath: string;
  slug: string;
  canonicalType: string;
  title: string;
  docId: string | null;
  markdown: string;
  requestedBy: string | null;
}

export type AuditAction = 'requested' | 'approved' | 'rejected' | 'denied' | 'dispatch_failed';

export interface AuditEntry {
  tenantId: string;
  approvalId: string | null;
  action: AuditAction;
  userId: string | null;
  actor?: string;
  detail: object;
}

export interface Claim {
  approvalId: string;
  tenantId: string;
  tokenHash: string;
  outcome: 'approved' | 'rejected';
  userId: string;
  reason: string | null;
  /** The service's clock: the token must not have lapsed by then; also the decision's time. */
  at: Date;
}

const RUN = 'id, tenant_id, flow_run_id, project_key, source_path, slug, canonical_type, title, doc_id, markdown, requested_by';

/** Paused promotion runs and their audit trail; every statement names the tenant. */
@Injectable()
export class PromotionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the run with its audit entry in one transaction; answers when its token expires. */
  async pause(run: NewPausedRun, audit: AuditEntry): Promise<Date> {
    return this.db.transaction(async (m) => {
      const [row] = await m.query(
        `INSERT INTO kb_promotion_approvals (id, tenant_id, flow_run_id, token_hash, expires_at, project_key, source_path, slug, canonical_type, title, doc_id, markdown, requested_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING expires_at`,
        [run.id, run.tenantId, run.flowRunId, run.tokenHash, run.expiresAt, run.projectKey, run.sourcePath, run.slug, run.canonicalType, run.title, run.docId, run.markdown, run.requestedBy],
      );
      await this.audit(m, audit);
      return row.expires_at as Date;
    });
  }

  /**
   * Decides a run with one conditional update: right tenant, right token hash, still pending, not
   * expired. Row locking makes concurrent claims queue up and all but the first find it decided.
   * The attempt is audited either way; a rejected run's draft is erased. Null when refused.
   */
  async claim(c: Claim, audit: Omit<AuditEntry, 'action' | 'approvalId'>): Promise<PausedRun | null> {
    return this.db.transaction(async (m) => {
      const [rows] = await m.query(
        `UPDATE kb_promotion_approvals SET status = $4, decided_by = $5, decided_at = $7, decision_reason = $6
         WHERE id = $1 AND tenant_id = $2 AND token_hash = $3 AND status = 'pending' AND expires_at > $7
         RETURNING ${RUN}`,
        [c.approvalId, c.tenantId, c.tokenHash, c.outcome, c.userId, c.reason, c.at],
      );
      const run = (rows as PausedRun[])[0] ?? null;
      await this.audit(m, { ...audit, approvalId: c.approvalId, action: run ? c.outcome : 'denied' });
      if (run && c.outcome === 'rejected') await m.query('UPDATE kb_promotion_approvals SET markdown = NULL WHERE id = $1', [run.id]);
      return run;
    });
  }

  async markFailed(tenantId: string, approvalId: string, audit: AuditEntry): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query(`UPDATE kb_promotion_approvals SET status = 'failed' WHERE tenant_id = $1 AND id = $2`, [tenantId, approvalId]);
      await this.audit(m, audit);
    });
  }

  async recordDocument(tenantId: string, approvalId: string, documentId: number): Promise<void> {
    await this.db.query('UPDATE kb_promotion_approvals SET document_id = $3 WHERE tenant_id = $1 AND id = $2', [tenantId, approvalId, documentId]);
  }

  /** A refusal for an id that cannot name a run. */
  async auditRefusal(audit: AuditEntry): Promise<void> {
    await this.audit(this.db.manager, audit);
  }

  private async audit(m: EntityManager, a: AuditEntry): Promise<void> {
    await m.query('INSERT INTO kb_promotion_audit (tenant_id, approval_id, action, actor_user_id, actor_label, detail) VALUES ($1, $2, $3, $4, $5, $6)', [
      a.tenantId,
      a.approvalId,
      a.action,
      a.userId,
      a.actor ?? null,
      JSON.stringify(a.detail),
    ]);
  }
}
