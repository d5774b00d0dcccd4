import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { QueueModule } from '@platform/queue';
import { PlatformModule } from '@platform/runtime';
import { KbApiEnv } from '../../config/env';
import { KbConfigModule } from '../../config/kb-config';
import { entities } from '../../data-source';
import { migrations } from '../../migrations';
import { IngestModule } from './ingest.module';
import { IngestService } from './ingest.service';

@Module({
  imports: [
    PlatformModule.forRoot({ service: 'kb-api-cli', env: KbApiEnv, http: false, database: { defaultName: 'kb', entities, migrations } }),
    KbConfigModule,
    QueueModule.forRoot('kb-api'),
    IngestModule.api(),
  ],
})
class DemoDocumentsModule {}

/**
 * Submits every markdown file of a directory to tenant `default`, project `platform`, through the
 * same ingest path as the API (the worker indexes them). Re-running it queues nothing new: jobs are
 * keyed by content.
 */
export async function ingestDemoDocuments(dir: string): Promise<{ queued: number; failed: number }> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  const documents = await Promise.all(
    files.map(async (f) => ({ project_key: 'platform', source_path: `docs/${f}`, content: await readFile(path.join(dir, f), 'utf8') })),
  );
  if (documents.length === 0) return { queued: 0, failed: 0 };
  const app = await NestFactory.createApplicationContext(DemoDocumentsModule, { logger: false });
  try {
    const result = await app.get(IngestService).ingest('default', documents);
    return { queued: result.queued, failed: result.failed };
  } finally {
    await app.close();
  }
}
