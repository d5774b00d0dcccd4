import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { iso } from '../sql-filter';

export interface ReportContent {
  summary: Record<string, unknown>;
  /** Flat rows: the CSV download is these, one line each. */
  rows: Array<Record<string, unknown>>;
  /** The CSV header, fixed when generated (stored JSON does not keep key order). */
  columns?: string[];
}

/** Columns that hold or point at a person, by what they are. `name` counts only next to an e-mail (a person's name). */
const PERSONAL_COLUMNS: Record<string, string> = {
  email: 'contact',
  email_key: 'contact',
  recipient: 'contact',
  ip: 'network identifier',
  ip_address: 'network identifier',
  user_agent: 'device',
  user_id: 'user reference',
  actor_user_id: 'user reference',
  actor_label: 'user reference',
  created_by: 'user reference',
  updated_by: 'user reference',
  computed_by: 'user reference',
  subject: 'user reference',
  question: 'free text',
  answer: 'free text',
  content: 'free text',
};

/** How long each kind of record is kept by default, in days, and which timestamp ages it. */
export const RETENTION_DEFAULTS: Record<string, { column: string; days: number }> = {
  kb_chat_logs: { column: 'created_at', days: 365 },
  kb_conversations: { column: 'updated_at', days: 365 },
  kb_activity_logs: { column: 'created_at', days: 365 },
  kb_application_logs: { column: 'created_at', days: 90 },
  kb_promotion_audit: { column: 'created_at', days: 730 },
  kb_notifications: { column: 'created_at', days: 180 },
  kb_sessions: { column: 'last_seen_at', days: 30 },
  kb_personal_access_tokens: { column: 'expires_at', days: 0 },
  kb_insight_snapshots: { column: 'created_at', days: 365 },
  kb_compliance_reports: { column: 'created_at', days: 730 },
};

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The three compliance reports, computed from the live tables of one tenant. */
@Injectable()
export class ReportBuilders {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Personal data per tenant-scoped table (rows holding a value per personal column), then PII found in chat logs. */
  async dataInventory(tenantId: string): Promise<ReportContent> {
    const tables: Array<{ table_name: string; columns: string[] }> = await this.db.query(
      `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
         FROM information_schema.columns c
        WHERE c.table_schema = current_schema()
          AND EXISTS (SELECT 1 FROM information_schema.columns t WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.column_name = 'tenant_id')
        GROUP BY c.table_name ORDER BY c.table_name`,
    );
    const rows: Array<Record<string, unknown>> = [];
    let tablesWithPersonalData = 0;
    for (const { table_name: table, columns } of tables) {
      const personal = columns.filter((c) => PERSONAL_COLUMNS[c]);
      if (columns.includes('email') && columns.includes('name')) personal.push('name');
      if (personal.length === 0) continue;
      tablesWithPersonalData++;
      const [counts] = await this.db.query(
        `SELECT count(*)::int AS total, ${personal.map((c, i) => `count(${quoted(c)})::int AS c${i}`).join(', ')} FROM ${quoted(table)} WHERE tenant_id = $1`,
        [tenantId],
      );
      personal.forEach((column, i) =>
        rows.push({
          section: 'table',
          table,
          column,
          category: PERSONAL_COLUMNS[column] ?? 'identity',
          rows_with_value: counts[`c${i}`],
          table_rows: counts.total,
        }),
      );
    }
    const detectors: Array<{ detector: string; hits: number; logs: number }> = await this.db.query(
      `SELECT h.key AS detector, sum(h.value::int)::int AS hits, count(*)::int AS logs
         FROM kb_chat_logs l CROSS JOIN LATERAL jsonb_each_text(l.pii_hits) h WHERE l.tenant_id = $1 GROUP BY h.key ORDER BY h.key`,
      [tenantId],
    );
    for (const d of detectors)
      rows.push({
        section: 'chat_log_pii',
        table: 'kb_chat_logs',
        detector: d.detector,
        hits: d.hits,
        logs_with_hits: d.logs,
      });
    const [{ tokens }] = await this.db.query(
      'SELECT count(*)::int AS tokens FROM kb_pii_tokens WHERE tenant_id = $1',
      [tenantId],
    );
    return {
      summary: {
        tables_scanned: tables.length,
        tables_with_personal_data: tablesWithPersonalData,
        chat_log_pii_hits: detectors.reduce((s, d) => s + d.hits, 0),
        tokenized_values_stored: tokens,
      },
      rows,
    };
  }

  /** Everyone who can act in the tenant: home users and users holding a role or membership there. */
  async accessReview(tenantId: string): Promise<ReportContent> {
    const users = await this.db.query(
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
         (SELECT count(*)::int FROM kb_personal_access_tokens t WHERE t.user_id = u.id AND t.tenant_id = $1 AND t.expires_at > now()) AS active_tokens,
         (SELECT max(t.last_used_at) FROM kb_personal_access_tokens t WHERE t.user_id = u.id AND t.tenant_id = $1) AS token_last_used_at,
         coalesce((SELECT jsonb_agg(jsonb_build_object('name', t.name, 'last_used_at', t.last_used_at, 'expires_at', t.expires_at, 'abilities', t.abilities) ORDER BY t.id)
                     FROM kb_personal_access_tokens t WHERE t.user_id = u.id AND t.tenant_id = $1), '[]'::jsonb) AS tokens,
         (SELECT max(s.last_seen_at) FROM kb_sessions s WHERE s.user_id = u.id AND s.tenant_id = $1) AS session_last_seen_at
       FROM kb_users u JOIN people ON people.id = u.id ORDER BY u.id`,
      [tenantId],
    );
    const rows = users.map((u: Record<string, unknown>) => ({
      user_id: String(u['id']),
      name: u['name'],
      email: u['email'],
      active: u['active'],
      home_tenant: u['home_tenant'],
      roles: u['roles'],
      permissions: u['permissions'],
      memberships: u['memberships'],
      active_tokens: u['active_tokens'],
      token_last_used_at: iso(u['token_last_used_at']),
      session_last_seen_at: iso(u['session_last_seen_at']),
      tokens: u['tokens'],
      created_at: iso(u['created_at']),
    }));
    const count = (pred: (r: (typeof rows)[number]) => boolean) => rows.filter(pred).length;
    return {
      summary: {
        users: rows.length,
        active_users: count((r: Record<string, unknown>) => r['active'] === true),
        without_role: count((r: Record<string, unknown>) => (r['roles'] as string[]).length === 0),
        admins: count((r: Record<string, unknown>) =>
          (r['roles'] as string[]).some((x) => x === 'admin' || x === 'super-admin'),
        ),
        with_active_tokens: count(
          (r: Record<string, unknown>) => (r['active_tokens'] as number) > 0,
        ),
      },
      rows,
    };
  }

  /** Per table: age of the tenant's rows, and how many the retention window would remove today. */
  async retention(tenantId: string, days: Record<string, number>): Promise<ReportContent> {
    const rows: Array<Record<string, unknown>> = [];
    let wouldRemove = 0;
    for (const [table, { column, days: fallback }] of Object.entries(RETENTION_DEFAULTS)) {
      const keep = days[table] ?? fallback;
      const c = quoted(column);
      const [r] = await this.db.query(
        `SELECT count(*)::int AS rows, min(${c}) AS oldest, max(${c}) AS newest,
                count(*) FILTER (WHERE ${c} >= now() - interval '30 days')::int AS age_0_30_days,
                count(*) FILTER (WHERE ${c} < now() - interval '30 days' AND ${c} >= now() - interval '90 days')::int AS age_31_90_days,
                count(*) FILTER (WHERE ${c} < now() - interval '90 days' AND ${c} >= now() - interval '365 days')::int AS age_91_365_days,
                count(*) FILTER (WHERE ${c} < now() - interval '365 days')::int AS age_over_365_days,
                count(*) FILTER (WHERE ${c} < now() - make_interval(days => $2))::int AS would_remove
           FROM ${quoted(table)} WHERE tenant_id = $1`,
        [tenantId, keep],
      );
      wouldRemove += r.would_remove;
      rows.push({
        table,
        aged_by: column,
        retention_days: keep,
        rows: r.rows,
        oldest: iso(r.oldest),
        newest: iso(r.newest),
        age_0_30_days: r.age_0_30_days,
        age_31_90_days: r.age_31_90_days,
        age_91_365_days: r.age_91_365_days,
        age_over_365_days: r.age_over_365_days,
        would_remove: r.would_remove,
      });
    }
    return {
      summary: {
        tables: rows.length,
        would_remove: wouldRemove,
        retention_days: Object.fromEntries(rows.map((r) => [r['table'], r['retention_days']])),
      },
      rows,
    };
  }
}
