import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { Clock } from '@platform/runtime';
import { Queue } from 'bullmq';
import { pageWindow, toPage } from '../../admin/pagination';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbError, KbMessage, KbValidationError } from '../../errors/kb-errors';
import { DocumentStorage } from '../../ingest/document-storage';
import type { IngestJobData } from '../../ingest/ingest.service';
import { commandNamed, MAINTENANCE_COMMANDS, MaintenanceCommand } from './command-catalogue';
import { ParamValues, validateParams } from './command-params';
import { CommandRunner } from './command-runner';
import { CommandRunsRepository } from './command-runs.repository';
import { CommandHistoryQueryDto, CommandRequestDto } from './commands.dto';
import { MaintenanceRepository } from './maintenance.repository';
import { scheduleStatus } from './schedules';

export const DESTRUCTIVE_PERMISSION = 'commands.destructive';
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The maintenance commands of the active tenant: catalogue, preview, run, history, schedules. */
@Injectable()
export class CommandsService {
  private readonly runner: CommandRunner;

  constructor(
    private readonly runs: CommandRunsRepository,
    private readonly rows: MaintenanceRepository,
    private readonly storage: DocumentStorage,
    @InjectQueue(QUEUES.kbIngest) private readonly ingestQueue: Queue<IngestJobData>,
    private readonly clock: Clock,
  ) {
    this.runner = new CommandRunner(runs, { rows, storage, ingestQueue });
  }

  catalogue(who: KbPrincipal) {
    return MAINTENANCE_COMMANDS.map((c) => ({
      name: c.name,
      description: c.description,
      destructive: c.destructive,
      allowed: !c.destructive || who.permissions.includes(DESTRUCTIVE_PERMISSION),
      params: c.params,
    }));
  }

  /** What a run would change, counted without changing anything. */
  async preview(who: KbPrincipal, body: CommandRequestDto) {
    const { command, params } = this.resolve(body);
    const counts = await command.preview({ rows: this.rows, storage: this.storage, ingestQueue: this.ingestQueue, tenantId: who.tenantId, runKey: 'preview' }, params);
    return { command: command.name, destructive: command.destructive, params, would_change: counts };
  }

  async run(who: KbPrincipal, body: CommandRequestDto, idempotencyKey: string | undefined) {
    const { command, params } = this.resolve(body);
    if (command.destructive && !who.permissions.includes(DESTRUCTIVE_PERMISSION)) {
      throw new KbMessage(403, `The ${command.name} command is destructive: it needs the ${DESTRUCTIVE_PERMISSION} permission.`);
    }
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new KbValidationError({ 'Idempotency-Key': ['The Idempotency-Key header must be 1 to 255 visible ASCII characters.'] });
    }
    const outcome = await this.runner.execute(who.tenantId, command, params, { actorUserId: who.userId, trigger: 'api', idempotencyKey: idempotencyKey ?? null });
    if ('conflict' in outcome) {
      throw new KbError(409, 'idempotency_key_reused', 'This Idempotency-Key was used for another command or other parameters.', { run_id: outcome.conflict.id });
    }
    return outcome;
  }

  async history(who: KbPrincipal, q: CommandHistoryQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.runs.page(who.tenantId, { command: q.command, status: q.status }, w);
    return toPage(rows, total, w);
  }

  async schedulerStatus(who: KbPrincipal) {
    return scheduleStatus(await this.runs.latestPerCommand(who.tenantId), this.clock.now());
  }

  private resolve(body: CommandRequestDto): { command: MaintenanceCommand; params: ParamValues } {
    const command = commandNamed(body.command)!;
    const { values, errors } = validateParams(command.params, body.params);
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    return { command, params: values };
  }
}
