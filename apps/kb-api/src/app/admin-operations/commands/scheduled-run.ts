import { queryRows } from '@platform/database';
import type { DataSource } from 'typeorm';
import type { DocumentStorage } from '../../ingest/document-storage';
import { commandNamed } from './command-catalogue';
import { CommandRunner } from './command-runner';
import { CommandRunsRepository } from './command-runs.repository';
import { COMMAND_SCHEDULES } from './schedules';

export interface ScheduledOutcome {
  tenant_id: string;
  run_id: string;
  status: string;
  result: Record<string, number>;
  error: string | null;
}

/**
 * The CLI side of a schedule (`commands:run <command>`, started by a CronJob): runs the scheduled
 * command with its scheduled parameters in every active tenant, each recorded in that tenant's
 * history as trigger "schedule" (what scheduler-status reads). A failure in one tenant does not
 * stop the others.
 */
export async function runScheduledCommand(db: DataSource, storage: DocumentStorage, name: string): Promise<ScheduledOutcome[]> {
  const schedule = COMMAND_SCHEDULES.find((s) => s.command === name);
  const command = commandNamed(name);
  if (!schedule || !command) throw new Error(`no scheduled command "${name}" (one of ${COMMAND_SCHEDULES.map((s) => s.command).join(', ')})`);
  const runner = new CommandRunner(new CommandRunsRepository(db), { db, storage, ingestQueue: null });
  const tenants = await queryRows<{ id: string }>(db, `SELECT id FROM kb_tenants WHERE status = 'active' ORDER BY id`);
  const outcomes: ScheduledOutcome[] = [];
  for (const t of tenants) {
    const outcome = await runner.execute(t.id, command, schedule.params, { actorUserId: null, trigger: 'schedule', idempotencyKey: null });
    if ('run' in outcome) outcomes.push({ tenant_id: t.id, run_id: outcome.run.id, status: outcome.run.status, result: outcome.run.result, error: outcome.run.error });
  }
  return outcomes;
}
