import { Module } from '@nestjs/common';
import { documentStorageProvider } from '../ingest/document-storage.provider';
import { ChunkFeedbackController } from './chunk-feedback.controller';
import { ChunkFeedbackRepository } from './chunk-feedback.repository';
import { ChunkFeedbackService } from './chunk-feedback.service';
import { CollectionsController } from './collections.controller';
import { DocumentCatalogRepository } from './document-catalog.repository';
import { DocumentCatalogService } from './document-catalog.service';
import { DocumentOwnersRepository } from './document-owners.repository';
import { DocumentRemovalRepository } from './document-removal.repository';
import { DocumentRemovalService } from './document-removal.service';
import { DocumentsController } from './documents.controller';
import { KnowledgeLinksController } from './knowledge-links.controller';

/** The knowledge base's document routes: search, preview, delete, wikilinks, related, collections, chunk feedback. */
@Module({
  controllers: [
    DocumentsController,
    KnowledgeLinksController,
    CollectionsController,
    ChunkFeedbackController,
  ],
  providers: [
    documentStorageProvider,
    DocumentCatalogRepository,
    DocumentCatalogService,
    DocumentOwnersRepository,
    DocumentRemovalRepository,
    DocumentRemovalService,
    ChunkFeedbackRepository,
    ChunkFeedbackService,
  ],
  exports: [DocumentCatalogRepository],
})
export class DocumentsModule {}
