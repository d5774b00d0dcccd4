import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleInit } from '@nestjs/common';
import { JOBS, QUEUES } from '@platform/contracts';
import { Job, Queue } from 'bullmq';
import { SigningKeysService } from './signing-keys.service';

/** Hourly rotation step: cheap when nothing is due, and safe beside the CLI (advisory lock). */
@Processor(QUEUES.iamMaintenance)
export class SigningKeysProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger('SigningKeysProcessor');

  constructor(
    private readonly keys: SigningKeysService,
    @InjectQueue(QUEUES.iamMaintenance) private readonly queue: Queue,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    await this.queue.upsertJobScheduler(JOBS.rotateSigningKeys, { every: 60 * 60 * 1000 }, { name: JOBS.rotateSigningKeys });
  }

  async process(job: Job): Promise<unknown> {
    if (job.name !== JOBS.rotateSigningKeys) {
      this.logger.warn(`ignoring unknown job ${job.name}`);
      return undefined;
    }
    return this.keys.rotate();
  }
}
