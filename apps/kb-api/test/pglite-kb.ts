import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDataSourceOptions, migrateDatabase } from '@platform/database';
import { DataSource } from 'typeorm';
import { LocalDocumentStorage } from '../src/app/ingest/document-storage';
import { DocumentsRepository } from '../src/app/ingest/documents.repository';
import { IndexerService } from '../src/app/ingest/indexer.service';
import { ChunkEmbeddingsRepository } from '../src/app/retrieval/chunk-embeddings.repository';
import { readVectorConfig } from '../src/app/retrieval/vector-config';
import { ChunkEmbedder } from '../src/app/retrieval/vector-embedder';
import { migrations } from '../src/migrations';

/**
 * The kb schema migrated on `server` (a database of that name is created when missing), and a connection to it. No
 * named statements: PGlite serves every pooled connection from one session, where a statement prepared on one
 * connection already exists for the next.
 */
export async function migratedKb(server: string, database: string): Promise<DataSource> {
  const options = buildDataSourceOptions({ url: server, database, entities: [], migrations, poolSize: 4, prepareAfter: 0 });
  await migrateDatabase(options);
  return new DataSource(options).initialize();
}

/**
 * Builds the worker's IndexerService with `env` as the process environment it reads at start (the
 * embedding settings), then puts the environment back.
 */
export function indexerWith(db: DataSource, env: Record<string, string>): { indexer: IndexerService; storage: LocalDocumentStorage; documents: DocumentsRepository } {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const documents = new DocumentsRepository(db);
    const storage = new LocalDocumentStorage(mkdtempSync(path.join(tmpdir(), 'kb-vector-')));
    const { provider } = readVectorConfig(process.env);
    const embedder = provider ? new ChunkEmbedder(new ChunkEmbeddingsRepository(db), provider) : null;
    return { indexer: new IndexerService(documents, storage, embedder), storage, documents };
  } finally {
    for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** Stores a markdown document and runs the IngestDocumentJob for it, as the worker does; answers its id. */
export async function ingestMarkdown(
  kb: { indexer: IndexerService; storage: LocalDocumentStorage; documents: DocumentsRepository },
  tenantId: string,
  projectKey: string,
  sourcePath: string,
  markdown: string,
): Promise<number> {
  const bytes = Buffer.from(markdown, 'utf8');
  const hash = createHash('sha256').update(bytes).digest('hex');
  const storageKey = kb.storage.keyOf(tenantId, projectKey, sourcePath);
  const documentId = await kb.documents.accept({
    tenantId,
    projectKey,
    sourcePath,
    title: sourcePath,
    slug: sourcePath.replace(/[^a-z0-9]+/gi, '-').toLowerCase(),
    mimeType: 'text/markdown',
    sourceType: 'markdown',
    storageKey,
    hash,
    metadata: {},
  }, () => kb.storage.write(storageKey, bytes));
  const outcome = await kb.indexer.index({ tenantId, documentId, hash });
  if (outcome !== 'indexed') throw new Error(`${sourcePath} was not indexed: ${outcome}`);
  return Number(documentId);
}
