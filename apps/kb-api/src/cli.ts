import 'reflect-metadata';
import { loadEnv } from '@platform/config';
import { migrateDatabase } from '@platform/database';
import { runCliAndExit } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { seedBootstrapAdmin } from './app/identity/bootstrap-admin';
import { KbApiEnv } from './config/env';
import { dataSourceOptions } from './data-source';

runCliAndExit('kb-api', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const applied = await migrateDatabase(dataSourceOptions(loadEnv(KbApiEnv)));
      log.info('migrations applied', { applied });
    },
  },
  seed: {
    describe: 'the bootstrap super-admin of tenant default (idempotent)',
    run: async (_args, log) => {
      const env = loadEnv(KbApiEnv);
      const ds = await new DataSource(dataSourceOptions(env)).initialize();
      try {
        const admin = await seedBootstrapAdmin(ds, env);
        log.info('bootstrap admin ready', { email: admin.email, created: admin.created, development_defaults: admin.usedDefaults });
      } finally {
        await ds.destroy();
      }
    },
  },
});
