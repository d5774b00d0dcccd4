import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { approvedCallQueue, Guardrails } from '@platform/guardrails';
import { redisOptionsFromUrl } from '@platform/queue';
import { KB_GUARDRAILS } from '../guardrails/guardrails-token';
import { KbConfig } from '../../config/kb-config';

/**
 * kb-api's HTTP process registers no tool executor: an approval decided here goes onto the
 * guardrails' approved-calls queue (job id = approval id), like one decided at the admin API, and
 * the kb worker runs it. One path for every decision, and tools never run twice.
 */
@Injectable()
export class ApprovedCallsDispatch implements OnModuleInit, OnApplicationShutdown {
  private queue?: ReturnType<typeof approvedCallQueue>;

  constructor(
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly config: KbConfig,
  ) {}

  onModuleInit(): void {
    this.queue = approvedCallQueue({ connection: redisOptionsFromUrl(this.config.get('REDIS_URL')), prefix: this.config.get('GUARDRAILS_QUEUE_PREFIX') });
    this.guardrails.setApprovedCallDispatcher(this.queue.dispatch);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }
}
