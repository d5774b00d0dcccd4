import type { ParamValues } from './command-params';
import type { CommandRunRow } from './command-runs.repository';
import { nextRun, parseCron } from './cron';

export interface CommandSchedule {
  command: string;
  /** UTC, as the Helm chart's CronJob `schedule`. */
  cron: string;
  params: ParamValues;
}

/**
 * The maintenance commands that run on a schedule, each in every active tenant: the CLI task
 * `commands:run <command>` started by a CronJob of the kb-api chart with this cron.
 */
export const COMMAND_SCHEDULES: readonly CommandSchedule[] = [
  { command: 'prune-expired-auth', cron: '17 * * * *', params: {} },
  { command: 'purge-deleted-documents', cron: '40 2 * * *', params: { grace_days: 30 } },
  { command: 'prune-chat-logs', cron: '50 2 * * *', params: { older_than_days: 90 } },
  { command: 'prune-notifications', cron: '10 3 * * 0', params: { older_than_days: 90, only_read: true } },
];

export interface ScheduleStatus {
  command: string;
  cron: string;
  timezone: 'Etc/UTC';
  params: ParamValues;
  cli_task: string;
  last_run: Pick<CommandRunRow, 'id' | 'status' | 'trigger' | 'started_at' | 'finished_at' | 'result'> | null;
  next_due_at: string | null;
  /** No run since the schedule last fired (or never ran). */
  overdue: boolean;
}

/** The previous time a schedule fired before `now`, searching back up to a week then a year. */
function previousRun(cron: string, now: Date): Date | null {
  const s = parseCron(cron);
  for (const span of [7 * 24 * 3600_000, 366 * 24 * 3600_000]) {
    let t = nextRun(s, new Date(now.getTime() - span));
    let last: Date | null = null;
    while (t && t <= now) {
      last = t;
      t = nextRun(s, t);
    }
    if (last) return last;
  }
  return null;
}

export function scheduleStatus(latest: Map<string, CommandRunRow>, now: Date): ScheduleStatus[] {
  return COMMAND_SCHEDULES.map((s) => {
    const run = latest.get(s.command) ?? null;
    const previous = previousRun(s.cron, now);
    return {
      command: s.command,
      cron: s.cron,
      timezone: 'Etc/UTC',
      params: s.params,
      cli_task: `commands:run ${s.command}`,
      last_run: run && { id: run.id, status: run.status, trigger: run.trigger, started_at: run.started_at, finished_at: run.finished_at, result: run.result },
      next_due_at: nextRun(parseCron(s.cron), now)?.toISOString() ?? null,
      overdue: !run || (previous !== null && new Date(run.started_at) < previous),
    };
  });
}
