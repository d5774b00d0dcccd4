import { Module } from '@nestjs/common';
import { METRICS_REGISTRY } from '@platform/observability';
import { Clock } from '@platform/runtime';
import { Counter, Gauge, Registry } from 'prom-client';
import { SynonymsRepository } from '../admin-knowledge/curation/synonyms.repository';
import { ChunkEmbeddingsRepository } from './chunk-embeddings.repository';
import { ChunkSearchRepository } from './chunk-search.repository';
import { LexicalIndexRepository } from './lexical-index.repository';
import { LexicalIndexes } from './lexical-indexes';
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
    LexicalIndexRepository,
    {
      provide: LexicalIndexes,
      useFactory: (repository: LexicalIndexRepository, config: KbConfig, clock: Clock, registry?: Registry) => {
        const indexes = new LexicalIndexes(repository, config.get('KB_LEXICAL_INDEX_MAX_MB') * 1024 * 1024, () => clock.nowMs());
        if (registry && !registry.getSingleMetric('kb_lexical_index_chunks')) {
          new Gauge({
            name: 'kb_lexical_index_chunks',
            help: "Chunks held in this process's in-memory lexical index, over all tenants",
            registers: [registry],
            collect() {
              this.set(indexes.held);
            },
          });
          new Gauge({
            name: 'kb_lexical_index_bytes',
            help: "The in-memory lexical index's estimate of its heap, held and reserved, over all tenants (KB_LEXICAL_INDEX_MAX_MB bounds it)",
            registers: [registry],
            collect() {
              this.set(indexes.heldBytes);
            },
          });
          new Counter({
            name: 'kb_retrieval_statistics_total',
            help: "Questions ranked with BM25 statistics from the tenant's in-memory index (source=index) or read from the database (source=database; also after the index was found behind a write)",
            labelNames: ['source'],
            registers: [registry],
            collect() {
              this.reset();
              this.inc({ source: 'index' }, indexes.statistics.index);
              this.inc({ source: 'database' }, indexes.statistics.database);
            },
          });
        }
        return indexes;
      },
      inject: [LexicalIndexRepository, KbConfig, Clock, { token: METRICS_REGISTRY, optional: true }],
    },
    {
      provide: VectorSearch,
      useFactory: (embeddings: ChunkEmbeddingsRepository, config: KbConfig) => new VectorSearch(embeddings, vectorConfigFrom(config)),
      inject: [ChunkEmbeddingsRepository, KbConfig],
    },
  ],
  exports: [RetrievalService],
})
export class RetrievalModule {}
