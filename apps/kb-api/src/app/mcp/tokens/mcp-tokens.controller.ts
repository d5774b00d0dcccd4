import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { CreateMcpTokenDto } from './mcp-tokens.dto';
import { McpTokensService } from './mcp-tokens.service';

/** Tenant MCP tokens of the active tenant (`can:manageMcpTools`); the secret is shown once, at issue. */
@Controller('api/admin/mcp/tokens')
@Can('manageMcpTools')
export class McpTokensController {
  constructor(private readonly tokens: McpTokensService) {}

  @Get()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.tokens.list(req.kbPrincipal!.tenantId, q);
  }

  @Post()
  @HttpCode(201)
  issue(@Body() body: CreateMcpTokenDto, @Req() req: KbRequest) {
    return this.tokens.issue(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, body);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  async revoke(@Param('id', new RecordIdPipe('MCP token')) id: string, @Req() req: KbRequest) {
    return { data: await this.tokens.revoke(req.kbPrincipal!.tenantId, id) };
  }
}
