import { Body, Controller, Get, Param, Patch, Req } from '@nestjs/common';
import { IsBoolean } from 'class-validator';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { McpServersService } from './mcp-servers.service';
import { ApiParam, ApiProperty, ApiResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../../api-docs';
import { McpServerDto, McpToolDto } from '../mcp-responses.dto';
import { KB_SERVER } from '../mcp-scopes';

const ApiServerParam = () => ApiParam({ name: 'server', description: `MCP server name (\`${KB_SERVER.name}\`)`, schema: { type: 'string' } });

export class SetToolEnabledDto {
  @ApiProperty({ type: 'boolean' })
  @IsBoolean({ message: 'The enabled field must be true or false.' })
  enabled!: boolean;
}

/** The active tenant's MCP server settings (`can:manageMcpTools`). */
@ApiTags('MCP')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/mcp-servers')
@Can('manageMcpTools')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Get()
  @ApiOperation({ summary: "The tenant's MCP servers with their tools, required scopes and enabled flags (`can:manageMcpTools`)" })
  @ApiData(McpServerDto, { isArray: true, description: 'Servers' })
  list(@Req() req: KbRequest) {
    return this.servers.list(req.kbPrincipal!.tenantId);
  }

  @Get(':server')
  @ApiOperation({ summary: 'One MCP server (`can:manageMcpTools`)' })
  @ApiServerParam()
  @ApiData(McpServerDto, { description: 'Server' })
  @ApiResponse({ status: 404, description: 'Unknown server', type: ErrorBody })
  async show(@Param('server') server: string, @Req() req: KbRequest) {
    return { data: await this.servers.server(req.kbPrincipal!.tenantId, server) };
  }

  @Patch(':server/tools/:tool')
  @ApiOperation({
    summary:
      'Enables or disables a tool for the tenant: a disabled tool is absent from tools/list and refused at tools/call (`can:manageMcpTools`)',
  })
  @ApiServerParam()
  @ApiParam({ name: 'tool', description: 'Tool name, e.g. kb-search', schema: { type: 'string' } })
  @ApiData(McpToolDto, { description: 'The tool' })
  @ApiResponse({ status: 404, description: 'Unknown server or tool', type: ErrorBody })
  @ApiValidationFailed()
  async setTool(@Param('server') server: string, @Param('tool') tool: string, @Body() body: SetToolEnabledDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return { data: await this.servers.setToolEnabled(p.tenantId, server, tool, body.enabled, p.userId) };
  }
}
