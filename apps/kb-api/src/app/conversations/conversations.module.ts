import { Module } from '@nestjs/common';
import { AnswerProvider } from '../chat/answer-provider';
import { ChatService } from '../chat/chat.service';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';

/** ChatModule does not export its answering service, so this module wires its own from the same parts. */
@Module({
  imports: [RetrievalModule],
  controllers: [ConversationsController],
  providers: [AnswerProvider, ChatService, ConversationsRepository, ConversationsService],
})
export class ConversationsModule {}
