import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { documentStorageProvider } from '../ingest/document-storage.provider';
import { CommandsController } from './commands/commands.controller';
import { CommandsService } from './commands/commands.service';

/** Admin surfaces that act: maintenance commands, connectors, tabular reviews and workflows. */
@Module({
  imports: [BullModule.registerQueue({ name: QUEUES.kbIngest })],
  controllers: [CommandsController],
  providers: [documentStorageProvider, CommandsService],
})
export class KbAdminOperationsModule {}
