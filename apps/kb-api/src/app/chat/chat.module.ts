import { Module } from '@nestjs/common';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { AnswerProvider } from './answer-provider';
import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';
import { ChatLogModule } from './chat-log.module';

@Module({
  imports: [RetrievalModule, ChatLogModule],
  controllers: [ChatController],
  providers: [AnswerProvider, ChatService],
  exports: [RetrievalModule, ChatService],
})
export class ChatModule {}
