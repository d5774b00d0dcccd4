import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { documentStorageProvider } from '../ingest/document-storage.provider';
import { AnalysesController } from './analyses/analyses.controller';
import { AnalysesRepository } from './analyses/analyses.repository';
import { AnalysesService } from './analyses/analyses.service';
import { CorpusRepository } from './analyses/corpus.repository';
import { AutowikiController } from './autowiki/autowiki.controller';
import { AutowikiRepository } from './autowiki/autowiki.repository';
import { AutowikiService } from './autowiki/autowiki.service';
import { ContentGapsController } from './content-gaps/content-gaps.controller';
import { ContentGapsRepository } from './content-gaps/content-gaps.repository';
import { ContentGapsService } from './content-gaps/content-gaps.service';
import { AdminCollectionsController } from './curation/collections.controller';
import { CollectionsRepository } from './curation/collections.repository';
import { CollectionsService } from './curation/collections.service';
import { SynonymsController } from './curation/synonyms.controller';
import { SynonymsRepository } from './curation/synonyms.repository';
import { SynonymsService } from './curation/synonyms.service';
import { TagsController } from './curation/tags.controller';
import { TagsRepository } from './curation/tags.repository';
import { TagsService } from './curation/tags.service';
import { InventoryController } from './inventory/inventory.controller';
import { InventoryRepository } from './inventory/inventory.repository';
import { InventoryService } from './inventory/inventory.service';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsRepository } from './metrics/metrics.repository';
import { MetricsService } from './metrics/metrics.service';
import { KnowledgeSettingsController } from './settings/settings.controller';
import { SettingsRepository } from './settings/settings.repository';
import { KnowledgeSettingsService } from './settings/settings.service';

/** Admin surfaces over the knowledge itself: metrics and health, the KB tree and documents, collections, tags, synonyms, analyses, settings and auto-wiki operations. */
@Module({
  // The ingest queue: its depth and workers for the dashboard, and reindex jobs.
  imports: [BullModule.registerQueue({ name: QUEUES.kbIngest })],
  controllers: [
    MetricsController,
    InventoryController,
    AdminCollectionsController,
    TagsController,
    SynonymsController,
    AnalysesController,
    KnowledgeSettingsController,
    ContentGapsController,
    AutowikiController,
  ],
  providers: [
    documentStorageProvider,
    SettingsRepository,
    KnowledgeSettingsService,
    MetricsRepository,
    MetricsService,
    InventoryRepository,
    InventoryService,
    CollectionsRepository,
    CollectionsService,
    TagsRepository,
    TagsService,
    SynonymsRepository,
    SynonymsService,
    CorpusRepository,
    AnalysesRepository,
    AnalysesService,
    ContentGapsRepository,
    ContentGapsService,
    AutowikiRepository,
    AutowikiService,
  ],
})
export class KbAdminKnowledgeModule {}
