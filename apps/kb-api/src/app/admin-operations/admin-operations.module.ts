import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { documentStorageProvider } from '../ingest/document-storage.provider';
import { DocumentsRepository } from '../ingest/documents.repository';
import { IngestService } from '../ingest/ingest.service';
import { CommandsController } from './commands/commands.controller';
import { CommandsService } from './commands/commands.service';
import { ConnectorSettings } from './connectors/connector-settings';
import { ConnectorSyncService } from './connectors/connector-sync.service';
import { ConnectorsController } from './connectors/connectors.controller';
import { ConnectorsRepository } from './connectors/connectors.repository';
import { ConnectorsService } from './connectors/connectors.service';

/**
 * Admin surfaces that act: maintenance commands, connectors, tabular reviews and workflows. Work
 * runs in the API process; documents go through the ingest pipeline's own service and queue
 * (IngestModule.api() does not export IngestService, so it is provided here from the same class).
 */
@Module({
  imports: [BullModule.registerQueue({ name: QUEUES.kbIngest })],
  controllers: [CommandsController, ConnectorsController],
  providers: [documentStorageProvider, DocumentsRepository, IngestService, CommandsService, ConnectorSettings, ConnectorsRepository, ConnectorSyncService, ConnectorsService],
})
export class KbAdminOperationsModule {}
