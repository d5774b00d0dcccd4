import { Module } from '@nestjs/common';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { AnswerProvider } from './answer-provider';
import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';

@Module({
  imports: [RetrievalModule],
  controllers: [ChatController],
  providers: [AnswerProvider, ChatService],
  exports: [RetrievalModule, ChatService],
})
export class ChatModule {}
