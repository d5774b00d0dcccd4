/**
 * Table names of the Postgres stores. They are infrastructure configuration (`<group>.table`), never
 * runtime settings; the migration creates the defaults, so a host that renames one creates it too.
 */
export interface GuardrailsTables {
  audit: string;
  /** The audit's hourly roll-up (derived from `audit`; see GuardrailsAuditHourly migration). */
  audit_hourly: string;
  firewall_log: string;
  output_stats: string;
  settings: string;
  settings_audit: string;
  hitl_requests: string;
  approvals: string;
}

export const DEFAULT_GUARDRAILS_TABLES: Readonly<GuardrailsTables> = {
  audit: 'guardrails_injection_audit',
  audit_hourly: 'guardrails_injection_audit_hourly',
  firewall_log: 'guardrails_firewall_rejections',
  output_stats: 'guardrails_output_stats',
  settings: 'guardrails_settings',
  settings_audit: 'guardrails_settings_changes',
  hitl_requests: 'guardrails_hitl_requests',
  approvals: 'guardrails_approvals',
};

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Table names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
export function resolveTables(overrides: Partial<GuardrailsTables> = {}): GuardrailsTables {
  const tables = { ...DEFAULT_GUARDRAILS_TABLES, ...overrides };
  for (const [group, name] of Object.entries(tables)) {
    if (!IDENTIFIER.test(name)) throw new Error(`${group}.table "${name}" must match ${IDENTIFIER}`);
  }
  return tables;
}

/** LIKE pattern for a literal substring: `%`, `_` and the escape character itself are escaped. */
export function likeContains(text: string): string {
  return `%${text.replace(/[!%_]/g, '!$&')}%`;
}

/** Minimal query surface (a TypeORM DataSource or EntityManager, or a pg Pool adapter). */
export interface SqlRunner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A runner that can also run a unit of work in one transaction. */
export interface TransactionalSqlRunner extends SqlRunner {
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/** Builds a WHERE clause from optional conditions, numbering parameters as they are added. */
export class WhereBuilder {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  add(condition: (placeholder: string) => string, value: unknown): this {
    this.params.push(value);
    this.conditions.push(condition(`$${this.params.length}`));
    return this;
  }

  get sql(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }

  next(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}
