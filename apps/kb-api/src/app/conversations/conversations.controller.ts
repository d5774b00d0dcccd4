import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { AI_DISCLOSURE } from '../chat/chat.controller';
import { ConversationsService } from './conversations.service';
import { CreateConversationDto, MessageFeedbackDto, RenameConversationDto, SendMessageDto } from './dto/conversations.dto';
import { RecordIdPipe } from './record-id';

const caller = (req: KbRequest) => ({ tenantId: req.kbPrincipal!.tenantId, userId: req.kbPrincipal!.userId! });
const conversationId = new RecordIdPipe('Conversation');
const messageId = new RecordIdPipe('Message');

@Controller('api/conversations')
@UserOnly()
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Get()
  list(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.list(tenantId, userId);
  }

  @Post()
  create(@Body() body: CreateConversationDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.create(tenantId, userId, body.project_key);
  }

  @Patch(':id')
  rename(@Param('id', conversationId) id: string, @Body() body: RenameConversationDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.rename(tenantId, userId, id, body.title);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', conversationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    await this.conversations.remove(tenantId, userId, id);
  }

  @Get(':id/messages')
  messages(@Param('id', conversationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.messages(tenantId, userId, id);
  }

  @Post(':id/messages')
  async send(@Param('id', conversationId) id: string, @Body() body: SendMessageDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const { tenantId, userId } = caller(req);
    const reply = await this.conversations.ask(tenantId, userId, id, body.content, body.filters);
    res.setHeader('X-AI-Disclosure', AI_DISCLOSURE);
    return reply;
  }

  @Post(':id/messages/:message/feedback')
  @HttpCode(200)
  feedback(@Param('id', conversationId) id: string, @Param('message', messageId) message: string, @Body() body: MessageFeedbackDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.rate(tenantId, userId, id, message, body.rating);
  }

  @Post(':id/generate-title')
  @HttpCode(200)
  generateTitle(@Param('id', conversationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.generateTitle(tenantId, userId, id);
  }
}
