import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { DocumentOwnersRepository } from '../documents/document-owners.repository';
import { documentStorageProvider } from './document-storage.provider';
import { DocumentsRepository } from './documents.repository';
import { IndexerService } from './indexer.service';
import { IngestController } from './ingest.controller';
import { IngestProcessor } from './ingest.processor';
import { IngestQueueMetrics } from './ingest-queue.metrics';
import { IngestService } from './ingest.service';

@Module({})
export class IngestModule {
  /** The API side: validation, storage writes and job dispatch. */
  static api(): DynamicModule {
    return {
      module: IngestModule,
      imports: [BullModule.registerQueue({ name: QUEUES.kbIngest })],
      controllers: [IngestController],
      providers: [documentStorageProvider, DocumentsRepository, DocumentOwnersRepository, IngestService, IngestQueueMetrics],
      exports: [DocumentsRepository, documentStorageProvider, IngestService],
    };
  }

  /** The worker side: the IngestDocumentJob processor. */
  static worker(): DynamicModule {
    return {
      module: IngestModule,
      imports: [BullModule.registerQueue({ name: QUEUES.kbIngest })],
      providers: [documentStorageProvider, DocumentsRepository, IndexerService, IngestProcessor],
    };
  }
}
