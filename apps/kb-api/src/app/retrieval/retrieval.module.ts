import { Module } from '@nestjs/common';
import { SynonymsRepository } from '../admin-knowledge/curation/synonyms.repository';
import { ChunkEmbeddingsRepository } from './chunk-embeddings.repository';
import { ChunkSearchRepository } from './chunk-search.repository';
import { RetrievalService } from './retrieval.service';
import { RetrieveController } from './retrieve.controller';
import { TermStatsRepository } from './term-stats.repository';
import { KbConfig } from '../../config/kb-config';
import { vectorConfigFrom } from './vector-config';
import { VectorSearch } from './vector-search';

/** The one ranking path: POST /api/kb/retrieve here, and RetrievalService for the chat and the MCP search tools. */
@Module({
  controllers: [RetrieveController],
  providers: [
    RetrievalService,
    ChunkSearchRepository,
    TermStatsRepository,
    SynonymsRepository,
    ChunkEmbeddingsRepository,
    {
      provide: VectorSearch,
      useFactory: (embeddings: ChunkEmbeddingsRepository, config: KbConfig) => new VectorSearch(embeddings, vectorConfigFrom(config)),
      inject: [ChunkEmbeddingsRepository, KbConfig],
    },
  ],
  exports: [RetrievalService],
})
export class RetrievalModule {}
