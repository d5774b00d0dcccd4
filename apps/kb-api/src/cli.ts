import 'reflect-metadata';
import { loadEnv } from '@platform/config';
import { migrateDatabase } from '@platform/database';
import { runCliAndExit } from '@platform/runtime';
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
    describe: 'load demo data (idempotent)',
    run: async (_args, log) => {
      log.info('nothing to seed yet');
    },
  },
});
