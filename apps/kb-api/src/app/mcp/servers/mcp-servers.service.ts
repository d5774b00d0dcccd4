import { Injectable } from '@nestjs/common';
import { KbError } from '../../errors/kb-errors';
import { KB_SERVER } from '../mcp-scopes';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { McpToolSettingsRepository } from './mcp-tool-settings.repository';

export interface McpToolView {
  name: string;
  description: string;
  required_scope: string;
  enabled: boolean;
  input_schema: Record<string, unknown>;
}

/** The tenant's MCP servers (the built-in `enterprise-kb`) and which of their tools it allows. */
@Injectable()
export class McpServersService {
  constructor(
    private readonly catalogue: KbToolCatalogue,
    private readonly settings: McpToolSettingsRepository,
  ) {}

  async list(tenantId: string) {
    return { data: [await this.server(tenantId, KB_SERVER.name)] };
  }

  async server(tenantId: string, name: string) {
    if (name !== KB_SERVER.name) throw new KbError(404, 'not_found', 'MCP server not found.');
    const disabled = await this.settings.disabled(tenantId, name);
    const tools: McpToolView[] = this.catalogue.tools.map((t) => ({
      name: t.name,
      description: t.description,
      required_scope: t.scope,
      enabled: !disabled.has(t.name),
      input_schema: t.inputSchema,
    }));
    return { name, version: KB_SERVER.version, transport: 'streamable-http', endpoint: '/mcp/kb', builtin: true, tools };
  }

  async setToolEnabled(tenantId: string, server: string, tool: string, enabled: boolean, userId: string | null): Promise<McpToolView> {
    if (server !== KB_SERVER.name) throw new KbError(404, 'not_found', 'MCP server not found.');
    if (!this.catalogue.find(tool)) throw new KbError(404, 'not_found', 'MCP tool not found.');
    await this.settings.set(tenantId, server, tool, enabled, userId);
    const view = (await this.server(tenantId, server)).tools.find((t) => t.name === tool)!;
    return view;
  }

  /** The tools the tenant allows, for tools/list and tools/call. */
  async enabledTools(tenantId: string) {
    const disabled = await this.settings.disabled(tenantId, KB_SERVER.name);
    return this.catalogue.tools.filter((t) => !disabled.has(t.name));
  }
}
