import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { startKb } from '../../../../test/kb-test-env';
import { LocalDocumentStorage } from '../../ingest/document-storage';
import { scheduledCommandTask } from './scheduled-command.task';
import { runScheduledCommand } from './scheduled-run';
import { scheduledRunRepositories } from './scheduled-run.database';

describe('scheduled maintenance runs (the CLI side)', () => {
  let db: DataSource;
  let stop: () => Promise<void>;
  const storageDir = mkdtempSync(path.join(tmpdir(), 'kb-scheduled-'));

  beforeAll(async () => {
    ({ db, stop } = await startKb());
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('second', 'Second'), ('paused', 'Paused')`);
    await db.query(`UPDATE kb_tenants SET status = 'suspended' WHERE id = 'paused'`);
    for (const tenant of ['default', 'second', 'paused']) {
      await db.query(
        `INSERT INTO kb_chat_logs (tenant_id, question, answer, citations, confidence, latency_ms, created_at) VALUES ($1, 'q', 'a', '[]', 1, 1, now() - interval '200 days'), ($1, 'q', 'a', '[]', 1, 1, now())`,
        [tenant],
      );
    }
  }, 60_000);
  afterAll(async () => {
    await stop();
    rmSync(storageDir, { recursive: true, force: true });
  });

  it('runs the command with its scheduled parameters in every active tenant and records each run', async () => {
    const outcomes = await runScheduledCommand(scheduledRunRepositories(db), new LocalDocumentStorage(storageDir), 'prune-chat-logs');
    expect(outcomes.map((o) => [o.tenant_id, o.status, o.result])).toEqual([
      ['default', 'succeeded', { chat_logs: 1 }],
      ['second', 'succeeded', { chat_logs: 1 }],
    ]);
    const left = await db.query(`SELECT tenant_id, count(*)::int AS n FROM kb_chat_logs GROUP BY tenant_id ORDER BY tenant_id`);
    expect(left).toEqual([
      { tenant_id: 'default', n: 1 },
      { tenant_id: 'paused', n: 2 },
      { tenant_id: 'second', n: 1 },
    ]);
    const [run] = await db.query(`SELECT trigger, params, actor_user_id FROM kb_command_runs WHERE tenant_id = 'second'`);
    expect(run).toEqual({ trigger: 'schedule', params: { older_than_days: 90 }, actor_user_id: null });
  });

  it('is the cli task of the CronJobs: logs each tenant and exits 0 when all succeeded', async () => {
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const log = { info: (m: string, f?: Record<string, unknown>) => lines.push([m, f]), error: (m: string, f?: Record<string, unknown>) => lines.push([m, f]) };
    expect(await scheduledCommandTask.run(['prune-expired-auth'], log)).toBe(0);
    expect(lines.map(([m, f]) => [m, f?.['tenant_id']])).toEqual([
      ['scheduled command ran', 'default'],
      ['scheduled command ran', 'second'],
    ]);
    await expect(scheduledCommandTask.run(['drop-everything'], log)).rejects.toThrow(/no scheduled command/);
  });

  it('refuses a command that is not scheduled', async () => {
    await expect(runScheduledCommand(scheduledRunRepositories(db), new LocalDocumentStorage(storageDir), 'reindex-project')).rejects.toThrow(/no scheduled command/);
  });
});
