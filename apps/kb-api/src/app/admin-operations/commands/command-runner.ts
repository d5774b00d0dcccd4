import { randomUUID } from 'node:crypto';
import { CommandContext, MaintenanceCommand } from './command-catalogue';
import { ParamValues } from './command-params';
import { CommandRunRow, CommandRunsRepository } from './command-runs.repository';

export interface RunRequest {
  actorUserId: string | null;
  trigger: 'api' | 'schedule';
  idempotencyKey: string | null;
}

export type RunOutcome = { run: CommandRunRow; replayed: false } | { run: CommandRunRow; replayed: true } | { conflict: CommandRunRow };

/** Same command and parameters: what an idempotent retry must repeat exactly. */
const sameRequest = (run: CommandRunRow, command: string, params: ParamValues) =>
  run.command === command && JSON.stringify(Object.entries(run.params).sort()) === JSON.stringify(Object.entries(params).sort());

/**
 * Runs a command and records it: a history row is written before it starts (so a crash leaves a
 * visible "running" row) and completed with its counts, status and duration. Shared by the admin
 * API and scheduled runs.
 */
export class CommandRunner {
  constructor(
    private readonly runs: CommandRunsRepository,
    private readonly context: Omit<CommandContext, 'tenantId' | 'runKey'>,
  ) {}

  async execute(tenantId: string, command: MaintenanceCommand, params: ParamValues, req: RunRequest): Promise<RunOutcome> {
    const id = await this.runs.start(tenantId, { command: command.name, params, trigger: req.trigger, actorUserId: req.actorUserId, idempotencyKey: req.idempotencyKey });
    if (id === null) {
      // The key was used before: the first run is the answer, unless it asked for something else.
      const earlier = (await this.runs.findByKey(tenantId, req.idempotencyKey!))!;
      return sameRequest(earlier, command.name, params) ? { run: earlier, replayed: true } : { conflict: earlier };
    }
    try {
      const result = await command.run({ ...this.context, tenantId, runKey: `${id}-${randomUUID().slice(0, 8)}` }, params);
      await this.runs.finish(tenantId, id, { status: 'succeeded', result, error: null });
    } catch (e) {
      await this.runs.finish(tenantId, id, { status: 'failed', result: {}, error: (e as Error).message });
    }
    return { run: (await this.runs.find(tenantId, id))!, replayed: false };
  }
}
