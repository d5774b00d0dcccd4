import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** How a table's rows in one tenant are spread by age, and how many a retention window would remove. */
export interface AgeProfile {
  rows: number;
  oldest: unknown;
  newest: unknown;
  age_0_30_days: number;
  age_31_90_days: number;
  age_91_365_days: number;
  age_over_365_days: number;
  would_remove: number;
}

/**
 * What the compliance reports read from the live tables, always one tenant's rows. Reads across
 * many features' tables by design (a report describes the whole tenant); it writes nothing.
 * Table and column names come from the catalogue or from fixed lists, never from a request. Ages
 * and token liveness are measured from the injected Clock's time, passed in, not the database's.
 */
@Injectable()
export class ComplianceSourcesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Every table of the schema with a tenant_id column, and its columns in order. */
  tenantTables(): Promise<Array<{ table_name: string; columns: string[] }>> {
    return this.db.query(
      `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
         FROM information_schema.columns c
        WHERE c.table_schema = current_schema()
          AND EXISTS (SELECT 1 FROM information_schema.columns t WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.column_name = 'tenant_id')
        GROUP BY c.table_name ORDER BY c.table_name`,
    );
  }

  /** The tenant's rows in `table`, and for each column how many of them hold a value. */
  async valueCounts(tenantId: string, table: string, columns: string[]): Promise<{ total: number; withValue: number[] }> {
    const [counts] = await this.db.query(
      `SELECT count(*)::int AS total, ${columns.map((c, i) => `count(${quoted(c)})::int AS c${i}`).join(', ')} FROM ${quoted(table)} WHERE tenant_id = $1`,
      [tenantId],
    );
    return { total: counts.total, withValue: columns.map((_, i) => counts[`c${i}`]) };
  }

  /** PII found in the tenant's chat logs, by detector: hits and how many logs had any. */
  chatLogPiiByDetector(tenantId: string): Promise<Array<{ detector: string; hits: number; logs: number }>> {
    return this.db.query(
      `SELECT h.key AS detector, sum(h.value::int)::int AS hits, count(*)::int AS logs
         FROM kb_chat_logs l CROSS JOIN LATERAL jsonb_each_text(l.pii_hits) h WHERE l.tenant_id = $1 GROUP BY h.key ORDER BY h.key`,
      [tenantId],
    );
  }

  async tokenizedValueCount(tenantId: string): Promise<number> {
    const [{ tokens }] = await this.db.query('SELECT count(*)::int AS tokens FROM kb_pii_tokens WHERE tenant_id = $1', [tenantId]);
    return tokens;
  }

  /** Everyone who can act in the tenant, with their roles, permissions, memberships, tokens and last activity. */
  accessReviewUsers(tenantId: string): Promise<Array<Record<string, unknown>>> {
    return this.db.query(
      `WITH people AS (
         SELECT id FROM kb_users WHERE tenant_id = $1
         UNION SELECT user_id FROM kb_user_roles WHERE tenant_id = $1
         UNION SELECT user_id FROM kb_memberships WHERE tenant_id = $1
         UNION SELECT user_id FROM kb_user_permissions WHERE tenant_id = $1)
       SELECT u.id, u.name, u.email, u.active, u.tenant_id AS home_tenant, u.created_at,
         coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM kb_user_roles r WHERE r.user_id = u.id AND r.tenant_id = $1), '{}') AS roles,
         coalesce((SELECT array_agg(DISTINCT p ORDER BY p) FROM (
             SELECT rp.permission AS p FROM kb_user_roles ur JOIN kb_effective_role_permissions rp ON rp.role = ur.role AND rp.tenant_id = ur.tenant_id WHERE ur.user_id = u.id AND ur.tenant_id = $1
             UNION SELECT permission FROM kb_user_permissions WHERE user_id = u.id AND (tenant_id = $1 OR tenant_id IS NULL)) x), '{}') AS permissions,
         coalesce((SELECT array_agg(m.project_key || ':' || m.role ORDER BY m.project_key) FROM kb_memberships m WHERE m.user_id = u.id AND m.tenant_id = $1), '{}') AS memberships,
         (SELECT count(*)::int FROM kb_personal_access_tokens t WHERE t.user_id = u.id AND t.tenant_id = $1 AND t.expires_at > $2::timestamptz) AS active_tokens,
         (SELECT max(t.last_used_at) FROM kb_personal_access_tokens t WHERE t.user_id = u.id AND t.tenant_id = $1) AS token_last_used_at,
         coalesce((SELECT jsonb_agg(jsonb_build_object('name', t.name, 'last_used_at', t.last_used_at, 'expires_at', t.expires_at, 'abilities', t.abilities) ORDER BY t.id)
                     FROM kb_personal_access_tokens t WHERE t.user_id = u.id AND t.tenant_id = $1), '[]'::jsonb) AS tokens,
         (SELECT max(s.last_seen_at) FROM kb_sessions s WHERE s.user_id = u.id AND s.tenant_id = $1) AS session_last_seen_at
       FROM kb_users u JOIN people ON people.id = u.id ORDER BY u.id`,
      [tenantId, this.clock.now()],
    );
  }

  /** The age profile of the tenant's rows in `table`, aged by `column`, against a window of `keepDays`. */
  async ageProfile(tenantId: string, table: string, column: string, keepDays: number): Promise<AgeProfile> {
    const c = quoted(column);
    const [r] = await this.db.query(
      `SELECT count(*)::int AS rows, min(${c}) AS oldest, max(${c}) AS newest,
              count(*) FILTER (WHERE ${c} >= $3::timestamptz - interval '30 days')::int AS age_0_30_days,
              count(*) FILTER (WHERE ${c} < $3::timestamptz - interval '30 days' AND ${c} >= $3::timestamptz - interval '90 days')::int AS age_31_90_days,
              count(*) FILTER (WHERE ${c} < $3::timestamptz - interval '90 days' AND ${c} >= $3::timestamptz - interval '365 days')::int AS age_91_365_days,
              count(*) FILTER (WHERE ${c} < $3::timestamptz - interval '365 days')::int AS age_over_365_days,
              count(*) FILTER (WHERE ${c} < $3::timestamptz - make_interval(days => $2))::int AS would_remove
         FROM ${quoted(table)} WHERE tenant_id = $1`,
      [tenantId, keepDays, this.clock.now()],
    );
    return r;
  }
}
