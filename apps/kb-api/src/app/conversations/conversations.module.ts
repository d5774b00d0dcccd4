import { Module } from '@nestjs/common';
import { AnswerProvider } from '../chat/answer-provider';
import { ChatService } from '../chat/chat.service';
import { OutputGuard } from '../chat/output-guard';
import { RetrievalService } from '../retrieval/retrieval.service';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';

/** ChatModule does not export its answering service, so this module wires its own from the same parts. */
@Module({
  controllers: [ConversationsController],
  providers: [RetrievalService, AnswerProvider, ChatService, OutputGuard, ConversationsRepository, ConversationsService],
})
export class ConversationsModule {}
