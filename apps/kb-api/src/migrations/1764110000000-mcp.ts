import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables of KbMcpModule: tenant MCP tokens (only a sha256 of the secret is kept), the per-tenant
 * switches of the built-in server's tools, and the audit of every tools/call.
 */
export class KbMcp1764110000000 implements MigrationInterface {
  name = 'KbMcp1764110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_mcp_tokens (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        label text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        token_last4 text NOT NULL,
        scopes jsonb NOT NULL,
        created_by bigint,
        last_used_at timestamptz,
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_mcp_tokens_tenant_idx ON kb_mcp_tokens (tenant_id, id DESC)');

    await q.query(`
      CREATE TABLE kb_mcp_tool_settings (
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        server text NOT NULL,
        tool text NOT NULL,
        enabled boolean NOT NULL,
        updated_by bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, server, tool)
      )`);

    await q.query(`
      CREATE TABLE kb_mcp_tool_call_audit (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        token_id bigint,
        user_id bigint,
        tool text NOT NULL,
        arguments_hash text NOT NULL,
        arguments jsonb NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('ok', 'denied', 'error')),
        reason text,
        duration_ms integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_mcp_audit_tenant_idx ON kb_mcp_tool_call_audit (tenant_id, created_at DESC, id DESC)');
    await q.query('CREATE INDEX kb_mcp_audit_tool_idx ON kb_mcp_tool_call_audit (tenant_id, tool, created_at DESC)');
    await q.query('CREATE INDEX kb_mcp_audit_token_idx ON kb_mcp_tool_call_audit (tenant_id, token_id, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['kb_mcp_tool_call_audit', 'kb_mcp_tool_settings', 'kb_mcp_tokens']) await q.query(`DROP TABLE ${t}`);
  }
}
