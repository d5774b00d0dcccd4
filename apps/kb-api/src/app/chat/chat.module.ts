import { Module } from '@nestjs/common';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { AnswerProvider } from './answer-provider';
import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';
import { OutputGuard } from './output-guard';

@Module({
  imports: [RetrievalModule],
  controllers: [ChatController],
  providers: [AnswerProvider, ChatService, OutputGuard],
  exports: [RetrievalModule, ChatService, OutputGuard],
})
export class ChatModule {}
