import { loadEnv } from '@platform/config';
import type { CliLogger } from '@platform/runtime';
import { KbApiEnv } from '../../config/env';
import { progressBar, reindexTenant } from './reindex';
import { openReindexDatabase } from './reindex.repository';

/**
 * The cli.ts task `kb:reindex <tenant>`: re-analyses every chunk of the tenant (reindex.ts) with a
 * progress bar on a terminal's stderr, or a log line per tenth elsewhere (a Job's log).
 */
export const reindexTask = {
  describe: 'kb:reindex <tenant>: re-analyse a tenant\'s chunks after a text-analysis change (full-text vectors and BM25 statistics)',
  run: async (args: string[], log: CliLogger, stderr: NodeJS.WriteStream = process.stderr): Promise<number> => {
    const tenantId = args[0];
    if (!tenantId) {
      log.error('kb:reindex needs the tenant id');
      return 1;
    }
    const env = loadEnv(KbApiEnv);
    const db = await openReindexDatabase(env);
    try {
      if (!(await db.tenants.find(tenantId))) {
        log.error('no such tenant', { tenant: tenantId });
        return 1;
      }
      let reported = -1;
      const result = await reindexTenant(db.reindex, tenantId, (p) => {
        if (stderr.isTTY) stderr.write(`\r${progressBar(p)}`);
        const tenth = p.total > 0 ? Math.floor((10 * p.done) / p.total) : 10;
        if (!stderr.isTTY && tenth !== reported) {
          reported = tenth;
          log.info('reindexing', { tenant: tenantId, done: p.done, total: p.total });
        }
      });
      if (stderr.isTTY) stderr.write('\n');
      log.info('tenant reindexed', { tenant: tenantId, documents: result.done });
      return 0;
    } finally {
      await db.close();
    }
  },
};
