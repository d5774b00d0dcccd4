import { Module } from '@nestjs/common';
import { OutputGuard } from '../chat/output-guard';
import { RetrievalService } from './retrieval.service';
import { RetrieveController } from './retrieve.controller';

/** The one ranking path: POST /api/kb/retrieve here, and RetrievalService for the chat and the MCP search tools. */
@Module({
  controllers: [RetrieveController],
  providers: [RetrievalService, OutputGuard],
  exports: [RetrievalService],
})
export class RetrievalModule {}
