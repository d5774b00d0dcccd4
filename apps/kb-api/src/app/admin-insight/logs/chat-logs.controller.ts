import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ChatLogQueryDto } from '../range-query.dto';
import { ChatLogsService } from './chat-logs.service';
import { RecordIdPipe } from '../../conversations/record-id';

const chatLogId = new RecordIdPipe('Chat log');

/** /api/admin/logs/chat behind G1; detokenize also needs the tenant's detokenize permission (checked by the service). */
@Controller('api/admin/logs/chat')
@RequireRole(...G1_ROLES)
export class ChatLogsController {
  constructor(private readonly logs: ChatLogsService) {}

  @Get()
  list(@Query() q: ChatLogQueryDto, @Req() req: KbRequest) {
    return this.logs.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  async show(@Param('id', chatLogId) id: string, @Req() req: KbRequest) {
    return { data: await this.logs.show(req.kbPrincipal!.tenantId, id) };
  }

  @Post(':id/detokenize')
  @HttpCode(200)
  async detokenize(@Param('id', chatLogId) id: string, @Req() req: KbRequest) {
    return { data: await this.logs.detokenize(req.kbPrincipal!, id) };
  }
}
