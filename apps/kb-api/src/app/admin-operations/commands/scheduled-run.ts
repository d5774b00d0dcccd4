import type { DocumentStorage } from '../../ingest/document-storage';
import type { TenantsRepository } from '../../tenancy/tenants.repository';
import { commandNamed } from './command-catalogue';
import { CommandRunner } from './command-runner';
import type { CommandRunsRepository } from './command-runs.repository';
import type { MaintenanceRepository } from './maintenance.repository';
import { COMMAND_SCHEDULES } from './schedules';

/** The repositories a scheduled run reads and writes through. */
export interface ScheduledRunRepositories {
  tenants: TenantsRepository;
  runs: CommandRunsRepository;
  rows: MaintenanceRepository;
}

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
export async function runScheduledCommand(repos: ScheduledRunRepositories, storage: DocumentStorage, name: string): Promise<ScheduledOutcome[]> {
  const schedule = COMMAND_SCHEDULES.find((s) => s.command === name);
  const command = commandNamed(name);
  if (!schedule || !command) throw new Error(`no scheduled command "${name}" (one of ${COMMAND_SCHEDULES.map((s) => s.command).join(', ')})`);
  const runner = new CommandRunner(repos.runs, { rows: repos.rows, storage, ingestQueue: null });
  const outcomes: ScheduledOutcome[] = [];
  for (const tenantId of await repos.tenants.activeIds()) {
    const outcome = await runner.execute(tenantId, command, schedule.params, { actorUserId: null, trigger: 'schedule', idempotencyKey: null });
    if ('run' in outcome) outcomes.push({ tenant_id: tenantId, run_id: outcome.run.id, status: outcome.run.status, result: outcome.run.result, error: outcome.run.error });
  }
  return outcomes;
}
