import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indirect prompt injection and the tool-approval loop.
 *
 * kb_chunks gets the ingest screen's verdict: `injection_flagged` (the screen matched in enforce
 * mode: the chunk carries instructions aimed at the model), the rule or classifier that matched and
 * the guardrails audit row. The defaults keep every existing chunk unflagged until it is re-indexed.
 *
 * kb_parked_tool_calls: a kb tool call (MCP or widget) the guardrails parked for human approval,
 * who asked for it (and the scope it runs in, e.g. the widget's project) and how it ended, so the approved call runs once and its caller can learn the
 * result. Only the SHA-256 of the approval token is kept, to find the tenant of a decision.
 */
export class KbIndirectInjection1764235000000 implements MigrationInterface {
  name = 'KbIndirectInjection1764235000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE kb_chunks
        ADD COLUMN injection_flagged boolean NOT NULL DEFAULT false,
        ADD COLUMN injection_rule_id text,
        ADD COLUMN injection_audit_id bigint`);
    await q.query('CREATE INDEX kb_chunks_flagged_idx ON kb_chunks (tenant_id, document_id) WHERE injection_flagged');

    await q.query(`
      CREATE TABLE kb_parked_tool_calls (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        approval_id uuid NOT NULL UNIQUE,
        run_id uuid NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        channel text NOT NULL CHECK (channel IN ('mcp', 'widget')),
        tool text NOT NULL,
        arguments jsonb NOT NULL,
        scope jsonb NOT NULL DEFAULT '{}'::jsonb,
        principal_id text NOT NULL,
        user_id bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        mcp_token_id bigint,
        widget_session_id uuid,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'rejected', 'expired')),
        result jsonb,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query('CREATE INDEX kb_parked_tool_calls_tenant_idx ON kb_parked_tool_calls (tenant_id, id)');
    await q.query('ALTER TABLE kb_parked_tool_calls ENABLE ROW LEVEL SECURITY');
    await q.query(`CREATE POLICY kb_tenant_isolation ON kb_parked_tool_calls USING (tenant_id = current_setting('app.tenant_id', true))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE kb_parked_tool_calls');
    await q.query('DROP INDEX kb_chunks_flagged_idx');
    await q.query('ALTER TABLE kb_chunks DROP COLUMN injection_audit_id, DROP COLUMN injection_rule_id, DROP COLUMN injection_flagged');
  }
}
