import 'reflect-metadata';
import { buildDataSourceOptions, migrateDatabase } from '@platform/database';
import { GUARDRAILS_MIGRATIONS } from '@platform/guardrails';
import { runCliAndExit } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { scheduledCommandTask } from './app/admin-operations/commands/scheduled-command.task';
import { seedBootstrapAdmin } from './app/identity/bootstrap-admin';
import { BootstrapAdminRepository } from './app/identity/bootstrap-admin.repository';
import { ingestDemoDocuments } from './app/ingest/demo-documents';
import { reindexTask } from './app/retrieval/reindex.task';
import { KbConfig } from './config/kb-config';

runCliAndExit('kb-api', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const config = KbConfig.load();
      const applied = await migrateDatabase(config.dataSourceOptions());
      // kb-api writes the guardrails audit and reads its settings: make sure that schema exists too
      // (the same migrations and history table guardrails-admin uses, so either may run first).
      const guardrails = await migrateDatabase(
        buildDataSourceOptions({ url: config.get('DATABASE_URL'), database: config.get('KB_GUARDRAILS_DATABASE_NAME'), entities: [], migrations: GUARDRAILS_MIGRATIONS }),
      );
      log.info('migrations applied', { applied, guardrails });
    },
  },
  seed: {
    describe: 'the bootstrap super-admin of tenant default, and demo documents from KB_DEMO_DOCUMENTS_DIR (idempotent)',
    run: async (_args, log) => {
      const config = KbConfig.load();
      const ds = await new DataSource(config.dataSourceOptions()).initialize();
      try {
        const admin = await seedBootstrapAdmin(new BootstrapAdminRepository(ds), config);
        log.info('bootstrap admin ready', { email: admin.email, created: admin.created, development_defaults: admin.usedDefaults });
      } finally {
        await ds.destroy();
      }
      const demoDocuments = config.get('KB_DEMO_DOCUMENTS_DIR');
      if (demoDocuments) {
        const docs = await ingestDemoDocuments(demoDocuments);
        log.info('demo documents submitted', docs);
      }
    },
  },
  'commands:run': scheduledCommandTask,
  'kb:reindex': reindexTask,
});
