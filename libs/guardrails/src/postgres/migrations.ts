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

export const GUARDRAILS_MIGRATIONS = [GuardrailsStores1763900000000];
