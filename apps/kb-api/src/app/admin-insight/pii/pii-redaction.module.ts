import { Global, Module } from '@nestjs/common';
import { ChatLogWriter } from './chat-log-writer';
import { PiiStrategyRepository } from './pii-strategy.repository';

/** Global so every module that wires a ChatService (chat, conversations, widget, MCP) logs through the strategy. */
@Global()
@Module({
  providers: [PiiStrategyRepository, ChatLogWriter],
  exports: [PiiStrategyRepository, ChatLogWriter],
})
export class PiiRedactionModule {}
