import type { CliLogger } from '@platform/runtime';
import { KbConfig } from '../../../config/kb-config';
import { createDocumentStorage, storageSettings } from '../../ingest/document-storage.provider';
import { runScheduledCommand } from './scheduled-run';
import { openScheduledRunRepositories } from './scheduled-run.database';
import { COMMAND_SCHEDULES } from './schedules';

/**
 * The cli.ts task `commands:run <command>` that the kb-api CronJobs start. Exits 1 when the command
 * failed in any tenant, so the Job is marked failed (the other tenants still ran).
 */
export const scheduledCommandTask = {
  describe: `run a scheduled maintenance command in every active tenant (${COMMAND_SCHEDULES.map((s) => s.command).join(', ')})`,
  run: async (args: string[], log: CliLogger): Promise<number> => {
    const config = KbConfig.load();
    const { repos, close } = await openScheduledRunRepositories(config);
    try {
      const outcomes = await runScheduledCommand(repos, createDocumentStorage(storageSettings(config)), args[0] ?? '');
      for (const o of outcomes) {
        if (o.status === 'succeeded') log.info('scheduled command ran', { command: args[0], ...o });
        else log.error('scheduled command failed', { command: args[0], ...o });
      }
      return outcomes.every((o) => o.status === 'succeeded') ? 0 : 1;
    } finally {
      await close();
    }
  },
};
