import 'reflect-metadata';
import { loadEnv } from '@platform/config';
import { buildDataSourceOptions, migrateDatabase } from '@platform/database';
import { GUARDRAILS_MIGRATIONS } from '@platform/guardrails';
import { runCliAndExit } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { scheduledCommandTask } from './app/admin-operations/commands/scheduled-command.task';
import { seedBootstrapAdmin } from './app/identity/bootstrap-admin';
import { BootstrapAdminRepository } from './app/identity/bootstrap-admin.repository';
import { ingestDemoDocuments } from './app/ingest/demo-documents';
import { reindexTask } from './app/retrieval/reindex.task';
import { KbApiEnv } from './config/env';
import { dataSourceOptions } from './data-source';

runCliAndExit('kb-api', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const env = loadEnv(KbApiEnv);
      const applied = await migrateDatabase(dataSourceOptions(env));
      // kb-api writes the guardrails audit and reads its settings: make sure that schema exists too
      // (the same migrations and history table guardrails-admin uses, so either may run first).
      const guardrails = await migrateDatabase(
        buildDataSourceOptions({ url: env.DATABASE_URL, database: env.KB_GUARDRAILS_DATABASE_NAME, entities: [], migrations: GUARDRAILS_MIGRATIONS }),
      );
      log.info('migrations applied', { applied, guardrails });
    },
  },
  seed: {
    describe: 'the bootstrap super-admin of tenant default, and demo documents from KB_DEMO_DOCUMENTS_DIR (idempotent)',
    run: async (_args, log) => {
      const env = loadEnv(KbApiEnv);
      const ds = await new DataSource(dataSourceOptions(env)).initialize();
      try {
        const admin = await seedBootstrapAdmin(new BootstrapAdminRepository(ds), env);
        log.info('bootstrap admin ready', { email: admin.email, created: admin.created, development_defaults: admin.usedDefaults });
      } finally {
        await ds.destroy();
      }
      if (env.KB_DEMO_DOCUMENTS_DIR) {
        const docs = await ingestDemoDocuments(env.KB_DEMO_DOCUMENTS_DIR);
        log.info('demo documents submitted', docs);
      }
    },
  },
  'commands:run': scheduledCommandTask,
  'kb:reindex': reindexTask,
});
