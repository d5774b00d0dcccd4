import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The guardrails stores' schema (default table names). Owned by the guardrails database; hosts that
 * write to it (guardrails-admin, kb-api) list these migrations with their own.
 *
 * Indexes serve the admin API's reads on large tables without full scans: keyset pages walk the
 * primary key newest first, each equality filter has an (x, id) index, and the 24-hour counts and
 * the trend read `occurred_at` with the columns they count included, as index-only scans.
 */
export class GuardrailsStores1763900000000 implements MigrationInterface {
  name = 'GuardrailsStores1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE guardrails_injection_audit (
        id bigserial PRIMARY KEY,
        prompt text NOT NULL,
        blocked boolean NOT NULL,
        rule_id text,
        principal_id text,
        ruleset_version text NOT NULL,
        errored_rule_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
        match_start integer,
        match_end integer,
        occurred_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX guardrails_audit_occurred_idx ON guardrails_injection_audit (occurred_at) INCLUDE (blocked, rule_id)');
    await q.query('CREATE INDEX guardrails_audit_blocked_idx ON guardrails_injection_audit (blocked, id)');
    await q.query('CREATE INDEX guardrails_audit_rule_idx ON guardrails_injection_audit (rule_id, id)');
    await q.query('CREATE INDEX guardrails_audit_principal_idx ON guardrails_injection_audit (principal_id, id)');

    await q.query(`
      CREATE TABLE guardrails_firewall_rejections (
        id bigserial PRIMARY KEY,
        tool_name text NOT NULL,
        tool_description text NOT NULL,
        principal_id text,
        violations jsonb NOT NULL,
        enforced boolean NOT NULL,
        occurred_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX guardrails_firewall_occurred_idx ON guardrails_firewall_rejections (occurred_at)');
    await q.query('CREATE INDEX guardrails_firewall_principal_idx ON guardrails_firewall_rejections (principal_id, id)');

    // Counters rolled up per hour: one row per (hour, counter) keeps the table small however many
    // outputs are handled; `pii:<detector>` rows break pii_redaction down.
    await q.query(`
      CREATE TABLE guardrails_output_stats (
        bucket timestamptz NOT NULL,
        counter text NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (bucket, counter)
      )`);

    await q.query(`
      CREATE TABLE guardrails_settings (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE guardrails_settings_changes (
        id bigserial PRIMARY KEY,
        actor_id text,
        key text NOT NULL,
        old_value jsonb,
        new_value jsonb,
        occurred_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE guardrails_approvals (
        approval_id uuid PRIMARY KEY,
        run_id uuid NOT NULL UNIQUE,
        step_name text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
        run_status text NOT NULL CHECK (run_status IN ('paused', 'running', 'succeeded', 'failed')),
        token_hash char(64) NOT NULL UNIQUE,
        tool text NOT NULL,
        arguments jsonb NOT NULL,
        principal_id text,
        actor jsonb,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        decided_at timestamptz
      )`);
    await q.query(`CREATE INDEX guardrails_approvals_pending_idx ON guardrails_approvals (created_at DESC) WHERE status = 'pending'`);

    await q.query(`
      CREATE TABLE guardrails_hitl_requests (
        id bigserial PRIMARY KEY,
        run_id uuid NOT NULL,
        tool text NOT NULL,
        arguments jsonb NOT NULL,
        principal_id text,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX guardrails_hitl_requests_run_idx ON guardrails_hitl_requests (run_id)');
    await q.query('CREATE INDEX guardrails_hitl_requests_created_idx ON guardrails_hitl_requests (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'guardrails_hitl_requests',
      'guardrails_approvals',
      'guardrails_settings_changes',
      'guardrails_settings',
      'guardrails_output_stats',
      'guardrails_firewall_rejections',
      'guardrails_injection_audit',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}

/**
 * Hourly roll-up of the audit, kept in step with it by the store (append adds, purge subtracts), so
 * the overview's 24-hour totals and spark and the trend read a few dozen rows however large the
 * audit grows; partial hours at a window's edges are still counted from the audit itself.
 */
export class GuardrailsAuditHourly1763910000000 implements MigrationInterface {
  name = 'GuardrailsAuditHourly1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE guardrails_injection_audit_hourly (
        bucket timestamptz PRIMARY KEY,
        attempts bigint NOT NULL,
        blocked bigint NOT NULL,
        observed bigint NOT NULL
      )`);
    await q.query(`
      INSERT INTO guardrails_injection_audit_hourly (bucket, attempts, blocked, observed)
      SELECT date_trunc('hour', occurred_at), count(*), count(*) FILTER (WHERE blocked), count(*) FILTER (WHERE NOT blocked AND rule_id IS NOT NULL)
        FROM guardrails_injection_audit GROUP BY 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE guardrails_injection_audit_hourly');
  }
}

/**
 * Trigram index for the audit's `q` (literal substring) filter, when the server ships pg_trgm (a
 * trusted extension: the database owner may create it). Without it `q` still works, by scanning.
 */
export class GuardrailsAuditPromptSearch1763920000000 implements MigrationInterface {
  name = 'GuardrailsAuditPromptSearch1763920000000';

  async up(q: QueryRunner): Promise<void> {
    const [available] = await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'`);
    if (!available) return;
    await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.query('CREATE INDEX guardrails_audit_prompt_trgm_idx ON guardrails_injection_audit USING gin (prompt gin_trgm_ops)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS guardrails_audit_prompt_trgm_idx');
  }
}

/**
 * v1.x addition: the tenant an audited screen or a parked call belongs to, where the host knows it
 * (kb-api does; a single-tenant host leaves it null). Nullable columns: existing rows stay valid.
 */
export class GuardrailsTenantAttribution1763930000000 implements MigrationInterface {
  name = 'GuardrailsTenantAttribution1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE guardrails_injection_audit ADD COLUMN tenant_id text');
    await q.query('ALTER TABLE guardrails_approvals ADD COLUMN tenant_id text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE guardrails_approvals DROP COLUMN tenant_id');
    await q.query('ALTER TABLE guardrails_injection_audit DROP COLUMN tenant_id');
  }
}

/**
 * Settings values keep the order they were sent in. jsonb stores an object with its keys re-sorted
 * (shorter first, then bytewise), and in a pattern map key order is the rule order: the first
 * matching rule in config order reports, and the ruleset version hashes the order. So every save of
 * `input_screen.patterns` silently reordered the rules. `json` keeps the text as written. Existing
 * rows convert as they are (their original order was already lost when jsonb stored them).
 * Nothing queries inside these values, so no jsonb operator or index is given up.
 */
export class GuardrailsSettingsKeepOrder1763945000000 implements MigrationInterface {
  name = 'GuardrailsSettingsKeepOrder1763945000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE guardrails_settings ALTER COLUMN value TYPE json USING value::json');
    await q.query(`
      ALTER TABLE guardrails_settings_changes
        ALTER COLUMN old_value TYPE json USING old_value::json,
        ALTER COLUMN new_value TYPE json USING new_value::json`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE guardrails_settings_changes
        ALTER COLUMN old_value TYPE jsonb USING old_value::jsonb,
        ALTER COLUMN new_value TYPE jsonb USING new_value::jsonb`);
    await q.query('ALTER TABLE guardrails_settings ALTER COLUMN value TYPE jsonb USING value::jsonb');
  }
}

export const GUARDRAILS_MIGRATIONS = [
  GuardrailsStores1763900000000,
  GuardrailsAuditHourly1763910000000,
  GuardrailsAuditPromptSearch1763920000000,
  GuardrailsTenantAttribution1763930000000,
  GuardrailsSettingsKeepOrder1763945000000,
];
