import 'reflect-metadata';
import { migrateDatabase } from '@platform/database';
import { createPostgresStores, GuardrailsSettingsService } from '@platform/guardrails';
import { runCliAndExit } from '@platform/runtime';
import { purgeHitlRequestsCommand, retentionCommand } from './app/cli/retention-commands';
import { openGuardrailsDatabase } from './app/runtime/guardrails-database';
import { GuardrailsAdminConfig } from './config/guardrails-admin-config';

/** The guardrails database for one task; closed when the task ends. */
async function withStores<T>(work: (deps: { stores: ReturnType<typeof createPostgresStores>; settings: GuardrailsSettingsService }) => Promise<T>): Promise<T> {
  const config = GuardrailsAdminConfig.load();
  const db = await openGuardrailsDatabase(config);
  try {
    const stores = createPostgresStores(db.sql, {
      tables: config.tables(),
      sidecar: config.get('GUARDRAILS_HITL_REQUESTS_STORE') === 'database',
    });
    return await work({ stores, settings: new GuardrailsSettingsService(stores.settings, config.settingsDefaults()) });
  } finally {
    await db.close();
  }
}

runCliAndExit('guardrails-admin', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const applied = await migrateDatabase(GuardrailsAdminConfig.load().dataSourceOptions());
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
