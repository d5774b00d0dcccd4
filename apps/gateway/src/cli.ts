import 'reflect-metadata';
import { runCliAndExit } from '@platform/runtime';

// The gateway owns no data: migrate and seed exist so every service answers the same commands.
runCliAndExit('gateway', {
  migrate: { describe: 'no-op: the gateway has no database', run: async (_a, log) => log.info('nothing to migrate') },
  seed: { describe: 'no-op: the gateway has no data', run: async (_a, log) => log.info('nothing to seed') },
});
