import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { CreateMcpTokenDto } from './mcp-tokens.dto';
import { McpTokensService } from './mcp-tokens.service';
import { ValidationClockInterceptor } from './validation-clock';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiNotFound, ApiPage, ApiRowIdParam, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { IssuedMcpTokenDto, McpTokenDto } from '../mcp-responses.dto';

/** Tenant MCP tokens of the active tenant (`can:manageMcpTools`); the secret is shown once, at issue. */
@ApiTags('MCP')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/mcp/tokens')
@Can('manageMcpTools')
export class McpTokensController {
  constructor(private readonly tokens: McpTokensService) {}

  @Get()
  @ApiOperation({ summary: "The active tenant's MCP tokens, newest first (`can:manageMcpTools`)" })
  @ApiPage(McpTokenDto)
  @ApiValidationFailed()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.tokens.list(req.kbPrincipal!.tenantId, q);
  }

  @Post()
  @ApiOperation({ summary: 'Issues a tenant MCP token; the secret is in the answer only (`can:manageMcpTools`)' })
  @ApiCreatedResponse({ description: 'Issued', type: IssuedMcpTokenDto })
  @ApiValidationFailed()
  @HttpCode(201)
  // The body's expires_at must be after now by the app's Clock (CreateMcpTokenDto).
  @UseInterceptors(ValidationClockInterceptor)
  issue(@Body() body: CreateMcpTokenDto, @Req() req: KbRequest) {
    return this.tokens.issue(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, body);
  }

  @Post(':id/revoke')
  @ApiOperation({ summary: 'Revokes a token at once; revoking again keeps the first time (`can:manageMcpTools`)' })
  @ApiRowIdParam('MCP token id')
  @ApiData(McpTokenDto, { description: 'Revoked' })
  @ApiNotFound('token')
  @HttpCode(200)
  async revoke(@Param('id', new RecordIdPipe('MCP token')) id: string, @Req() req: KbRequest) {
    return { data: await this.tokens.revoke(req.kbPrincipal!.tenantId, id) };
  }
}
