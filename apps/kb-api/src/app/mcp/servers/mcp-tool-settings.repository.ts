import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

/** Per-tenant switches of a server's tools; a tool without a row is enabled. */
@Injectable()
export class McpToolSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async disabled(tenantId: string, server: string): Promise<Set<string>> {
    const rows = await queryRows<{ tool: string }>(this.db, 'SELECT tool FROM kb_mcp_tool_settings WHERE tenant_id = $1 AND server = $2 AND NOT enabled', [tenantId, server]);
    return new Set(rows.map((r) => r.tool));
  }

  async set(tenantId: string, server: string, tool: string, enabled: boolean, userId: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_mcp_tool_settings (tenant_id, server, tool, enabled, updated_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, server, tool) DO UPDATE SET enabled = EXCLUDED.enabled, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [tenantId, server, tool, enabled, userId],
    );
  }
}
