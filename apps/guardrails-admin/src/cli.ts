import 'reflect-metadata';
import { loadEnv } from '@platform/config';
import { migrateDatabase } from '@platform/database';
import { createPostgresStores, GuardrailsSettingsService, sqlRunnerFor } from '@platform/guardrails';
import { runCliAndExit } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { purgeHitlRequestsCommand, retentionCommand } from './app/cli/retention-commands';
import { configuredDefaults, configuredTables } from './app/runtime/guardrails-config';
import { GuardrailsAdminEnv } from './config/env';
import { dataSourceOptions } from './data-source';

const env = () => loadEnv(GuardrailsAdminEnv);

/** The guardrails database for one task; closed when the task ends. */
async function withStores<T>(work: (deps: { stores: ReturnType<typeof createPostgresStores>; settings: GuardrailsSettingsService }) => Promise<T>): Promise<T> {
  const e = env();
  const ds = await new DataSource(dataSourceOptions(e)).initialize();
  try {
    const stores = createPostgresStores(sqlRunnerFor(ds), {
      tables: configuredTables(e.GUARDRAILS_TABLES),
      sidecar: e.GUARDRAILS_HITL_REQUESTS_STORE === 'database',
    });
    return await work({ stores, settings: new GuardrailsSettingsService(stores.settings, configuredDefaults(e.GUARDRAILS_SETTINGS_DEFAULTS)) });
  } finally {
    await ds.destroy();
  }
}

runCliAndExit('guardrails-admin', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const applied = await migrateDatabase(dataSourceOptions(env()));
      log.info('migrations applied', { applied });
    },
  },
  seed: {
    describe: 'nothing to seed: the audit fills as hosts screen prompts',
    run: async (_args, log) => log.info('nothing to seed'),
  },
  'guardrails:retention': {
    describe: '[--strategy=anonymize|purge|keep] [--days=N] [--actor=NAME] [--dry-run]: sweep old audit and HITL sidecar rows',
    run: (args, log) => withStores(({ stores, settings }) => retentionCommand(args, { stores, settings: () => settings.effective(), now: () => new Date() }, log)),
  },
  'guardrails:purge-hitl-requests': {
    describe: '--actor=NAME: erase every HITL sidecar row',
    run: (args, log) => withStores(({ stores }) => purgeHitlRequestsCommand(args, { stores }, log)),
  },
});
