import { Module } from '@nestjs/common';
import { QueueModule } from '@platform/queue';
import { PlatformModule } from '@platform/runtime';
import { KbGuardrailsModule } from './app/guardrails/kb-guardrails.module';
import { IngestModule } from './app/ingest/ingest.module';
import { ToolApprovalsModule } from './app/tool-approvals/tool-approvals.module';
import { KbApiEnv } from './config/env';
import { KbConfigModule } from './config/kb-config';
import { entities } from './data-source';
import { migrations } from './migrations';

/** The BullMQ worker process: the same feature modules as the API plus their processors. */
@Module({
  imports: [
    PlatformModule.forRoot({
      service: 'kb-api-worker',
      env: KbApiEnv,
      http: false,
      database: { defaultName: 'kb', entities, migrations },
    }),
    KbConfigModule,
    QueueModule.forRoot('kb-api'),
    // The ingest screen (indirect injection) and approved tool calls use the guardrails.
    KbGuardrailsModule,
    IngestModule.worker(),
    ToolApprovalsModule.worker(),
  ],
})
export class WorkerModule {}
