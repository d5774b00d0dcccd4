import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiValidationFailed, ErrorBody } from '../api-docs';
import { ApiNotOwned, ApiSignedIn } from '../api-docs/signed-in';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { AI_DISCLOSURE } from '../chat/chat.controller';
import { ConversationsService } from './conversations.service';
import { ConversationMessageDto, ConversationTitleDto, ConversationViewDto, MessageRatingDto } from './dto/conversation-views.dto';
import { CreateConversationDto, MessageFeedbackDto, RenameConversationDto, SendMessageDto } from './dto/conversations.dto';
import { RecordIdPipe } from './record-id';

const caller = (req: KbRequest) => ({ tenantId: req.kbPrincipal!.tenantId, userId: req.kbPrincipal!.userId! });
const conversationId = new RecordIdPipe('Conversation');
const messageId = new RecordIdPipe('Message');
const recordIdParam = (name: string, what: string) =>
  ApiParam({ name, description: `${what} id; anything but a positive integer is a 404`, schema: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } });
const ApiConversationId = () => recordIdParam('id', 'Conversation');

@ApiTags('Conversations')
@ApiSignedIn()
@Controller('api/conversations')
@UserOnly()
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's conversations in the active tenant, newest first" })
  @ApiOkResponse({ description: 'Conversations', type: [ConversationViewDto] })
  list(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.list(tenantId, userId);
  }

  @Post()
  @ApiOperation({ summary: 'Starts a conversation (title null)' })
  @ApiCreatedResponse({ description: 'Created', type: ConversationViewDto })
  @ApiValidationFailed()
  create(@Body() body: CreateConversationDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.create(tenantId, userId, body.project_key);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Renames a conversation' })
  @ApiConversationId()
  @ApiOkResponse({ description: 'The conversation', type: ConversationViewDto })
  @ApiNotOwned()
  @ApiValidationFailed()
  rename(@Param('id', conversationId) id: string, @Body() body: RenameConversationDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.rename(tenantId, userId, id, body.title);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a conversation and its messages' })
  @ApiConversationId()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotOwned()
  @HttpCode(204)
  async remove(@Param('id', conversationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    await this.conversations.remove(tenantId, userId, id);
  }

  @Get(':id/messages')
  @ApiOperation({ summary: "The conversation's messages in order" })
  @ApiConversationId()
  @ApiOkResponse({ description: 'Messages', type: [ConversationMessageDto] })
  @ApiNotOwned()
  messages(@Param('id', conversationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.messages(tenantId, userId, id);
  }

  @Post(':id/messages')
  @ApiOperation({ summary: 'Asks a question in the conversation (the chat of POST /api/kb/chat, scoped to its project)' })
  @ApiConversationId()
  @ApiCreatedResponse({ description: 'The assistant message plus `confidence` and `refusal_reason`; header X-AI-Disclosure', type: ConversationMessageDto })
  @ApiNotOwned()
  @ApiValidationFailed()
  @ApiResponse({ status: 502, description: 'The configured model failed `{error: "llm_unavailable"}` (504 on its timeout); nothing is stored', type: ErrorBody })
  async send(@Param('id', conversationId) id: string, @Body() body: SendMessageDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const { tenantId, userId } = caller(req);
    const reply = await this.conversations.ask(tenantId, userId, id, body.content, body.filters);
    res.setHeader('X-AI-Disclosure', AI_DISCLOSURE);
    return reply;
  }

  @Post(':id/messages/:message/feedback')
  @ApiOperation({ summary: 'Rates an assistant message; the same rating again clears it' })
  @ApiConversationId()
  @recordIdParam('message', 'Message')
  @ApiOkResponse({ description: 'The rating', type: MessageRatingDto })
  @ApiNotOwned()
  @ApiValidationFailed('Invalid body, or a user message')
  @HttpCode(200)
  feedback(@Param('id', conversationId) id: string, @Param('message', messageId) message: string, @Body() body: MessageFeedbackDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.rate(tenantId, userId, id, message, body.rating);
  }

  @Post(':id/generate-title')
  @ApiOperation({ summary: 'Titles the conversation after its first question (at most 80 characters)' })
  @ApiConversationId()
  @ApiOkResponse({ description: 'The title', type: ConversationTitleDto })
  @ApiNotOwned()
  @ApiValidationFailed('No question asked yet')
  @HttpCode(200)
  generateTitle(@Param('id', conversationId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return this.conversations.generateTitle(tenantId, userId, id);
  }
}
