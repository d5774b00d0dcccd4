import { Module } from '@nestjs/common';
import { RetrievalService } from '../retrieval/retrieval.service';
import { AnswerProvider } from './answer-provider';
import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';

@Module({
  controllers: [ChatController],
  providers: [RetrievalService, AnswerProvider, ChatService],
  exports: [RetrievalService, ChatService],
})
export class ChatModule {}
