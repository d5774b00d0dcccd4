import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleInit } from '@nestjs/common';
import { JOBS, QUEUES } from '@platform/contracts';
import { Job, Queue } from 'bullmq';
import { ClientSecretsService } from './management/client-secrets.service';
import { SigningKeysService } from './keys/signing-keys.service';
import { SessionsPurger } from './session/sessions-purger';

/** iam-only job (not part of the shared contracts: nothing outside iam enqueues it). */
export const PURGE_SESSIONS_JOB = 'iam.purge-sessions';

/**
 * iam's scheduled maintenance: an hourly signing-key rotation step, the daily due-secrets run and
 * a daily purge of old sessions. All are cheap when nothing is due and safe beside the CLI and CronJobs (locks in Postgres).
 */
@Processor(QUEUES.iamMaintenance)
export class MaintenanceProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger('MaintenanceProcessor');

  constructor(
    private readonly keys: SigningKeysService,
    private readonly secrets: ClientSecretsService,
    private readonly sessions: SessionsPurger,
    @InjectQueue(QUEUES.iamMaintenance) private readonly queue: Queue,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    await this.queue.upsertJobScheduler(JOBS.rotateSigningKeys, { every: 60 * 60 * 1000 }, { name: JOBS.rotateSigningKeys });
    await this.queue.upsertJobScheduler(JOBS.rotateDueSecrets, { pattern: '17 3 * * *', tz: 'Etc/UTC' }, { name: JOBS.rotateDueSecrets });
    await this.queue.upsertJobScheduler(PURGE_SESSIONS_JOB, { pattern: '41 4 * * *', tz: 'Etc/UTC' }, { name: PURGE_SESSIONS_JOB });
  }

  async process(job: Job): Promise<unknown> {
    if (job.name === JOBS.rotateSigningKeys) return this.keys.rotate();
    if (job.name === JOBS.rotateDueSecrets) return this.secrets.rotateDue();
    if (job.name === PURGE_SESSIONS_JOB) return this.sessions.purge();
    this.logger.warn(`ignoring unknown job ${job.name}`);
    return undefined;
  }
}
