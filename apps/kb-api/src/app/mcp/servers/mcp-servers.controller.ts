import { Body, Controller, Get, Param, Patch, Req } from '@nestjs/common';
import { IsBoolean } from 'class-validator';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { McpServersService } from './mcp-servers.service';

export class SetToolEnabledDto {
  @IsBoolean({ message: 'The enabled field must be true or false.' })
  enabled!: boolean;
}

/** The active tenant's MCP server settings (`can:manageMcpTools`). */
@Controller('api/admin/mcp-servers')
@Can('manageMcpTools')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Get()
  list(@Req() req: KbRequest) {
    return this.servers.list(req.kbPrincipal!.tenantId);
  }

  @Get(':server')
  async show(@Param('server') server: string, @Req() req: KbRequest) {
    return { data: await this.servers.server(req.kbPrincipal!.tenantId, server) };
  }

  @Patch(':server/tools/:tool')
  async setTool(@Param('server') server: string, @Param('tool') tool: string, @Body() body: SetToolEnabledDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return { data: await this.servers.setToolEnabled(p.tenantId, server, tool, body.enabled, p.userId) };
  }
}
