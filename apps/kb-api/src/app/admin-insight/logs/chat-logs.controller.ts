import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiNotFound, ApiPage, ApiRowIdParam, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../../api-docs';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ChatLogQueryDto } from '../range-query.dto';
import { ChatLogDto, DetokenizedChatLogDto } from './logs-responses.dto';
import { ChatLogsService } from './chat-logs.service';
import { RecordIdPipe } from '../../conversations/record-id';

const chatLogId = new RecordIdPipe('Chat log');

/** /api/admin/logs/chat behind G1; detokenize also needs the tenant's detokenize permission (checked by the service). */
@ApiTags('Admin insight')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/logs/chat')
@RequireRole(...G1_ROLES)
export class ChatLogsController {
  constructor(private readonly logs: ChatLogsService) {}

  @Get()
  @ApiOperation({
    summary: 'Chat logs as stored (redacted by the PII strategy), newest first',
    description: 'Gate G1. `search`: case-insensitive contains over question and answer.',
  })
  @ApiPage(ChatLogDto)
  @ApiValidationFailed()
  list(@Query() q: ChatLogQueryDto, @Req() req: KbRequest) {
    return this.logs.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One chat log with its citations', description: 'Gate G1.' })
  @ApiRowIdParam('Chat log id')
  @ApiData(ChatLogDto, { description: 'Chat log' })
  @ApiNotFound('chat log')
  async show(@Param('id', chatLogId) id: string, @Req() req: KbRequest) {
    return { data: await this.logs.show(req.kbPrincipal!.tenantId, id) };
  }

  @Post(':id/detokenize')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'The question and answer with tokenized values decrypted back in place (masked values are gone for good); recorded in the activity log',
    description:
      "G1 and the permission named by the tenant's `kb.pii_redactor.detokenize_permission` (default `pii.detokenize`).",
  })
  @ApiRowIdParam('Chat log id')
  @ApiData(DetokenizedChatLogDto, { description: 'Original text' })
  @ApiNotFound('chat log')
  @ApiResponse({ status: 403, description: 'Not G1, or without the detokenize permission', type: ErrorBody })
  async detokenize(@Param('id', chatLogId) id: string, @Req() req: KbRequest) {
    return { data: await this.logs.detokenize(req.kbPrincipal!, id) };
  }
}
