import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { DocumentOwnersRepository } from '../documents/document-owners.repository';
import { ChunkEmbeddingsRepository } from '../retrieval/chunk-embeddings.repository';
import { KbConfig } from '../../config/kb-config';
import { vectorConfigFrom } from '../retrieval/vector-config';
import { ChunkEmbedder } from '../retrieval/vector-embedder';
import { documentStorageProvider } from './document-storage.provider';
import { DocumentsRepository } from './documents.repository';
import { IndexerService, INGEST_EMBEDDER } from './indexer.service';
import { IngestController } from './ingest.controller';
import { IngestProcessor } from './ingest.processor';
import { IngestQueueMetrics } from './ingest-queue.metrics';
import { IngestService } from './ingest.service';

/** The indexer's embedder: only with an embedding provider configured (KB_EMBEDDINGS_PROVIDER). */
const ingestEmbedderProvider: Provider = {
  provide: INGEST_EMBEDDER,
  inject: [ChunkEmbeddingsRepository, KbConfig],
  useFactory: (embeddings: ChunkEmbeddingsRepository, config: KbConfig): ChunkEmbedder | null => {
    const { provider } = vectorConfigFrom(config);
    return provider ? new ChunkEmbedder(embeddings, provider) : null;
  },
};

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
      providers: [documentStorageProvider, DocumentsRepository, ChunkEmbeddingsRepository, ingestEmbedderProvider, IndexerService, IngestProcessor],
    };
  }
}
