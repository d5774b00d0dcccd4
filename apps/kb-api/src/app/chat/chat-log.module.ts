import { Global, Module } from '@nestjs/common';
import { PiiRedactionModule } from '../admin-insight/pii/pii-redaction.module';
import { ChatLogRepository } from './chat-log.repository';
import { ChatLogWriter } from './chat-log-writer';

/** Global so every module that wires a ChatService (chat, conversations, widget, MCP) logs its turns the same way. */
@Global()
@Module({
  imports: [PiiRedactionModule],
  providers: [ChatLogRepository, ChatLogWriter],
  exports: [ChatLogWriter],
})
export class ChatLogModule {}
