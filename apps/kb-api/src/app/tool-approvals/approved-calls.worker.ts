import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { approvedCallWorker, Guardrails } from '@platform/guardrails';
import { redisOptionsFromUrl } from '@platform/queue';
import type { Worker } from 'bullmq';
import { KB_GUARDRAILS } from '../guardrails/guardrails-token';
import { KbConfig } from '../../config/kb-config';
import { KbToolCatalogue } from '../mcp/tools/kb-tool-catalogue';
import { BACKEND_TOOLS } from '../widget/widget-catalog';
import { ToolApprovalsService } from './tool-approvals.service';

/**
 * The kb worker's side of approved calls: every kb tool (MCP and widget) gets the same executor,
 * which runs the parked call through ToolApprovalsService, and the worker consumes the guardrails'
 * approved-calls queue, where every decision (made in kb-api or at the guardrails admin API) puts
 * the approved call once.
 */
@Injectable()
export class ApprovedCallsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker;

  constructor(
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly approvals: ToolApprovalsService,
    private readonly catalogue: KbToolCatalogue,
    private readonly config: KbConfig,
  ) {}

  onApplicationBootstrap(): void {
    const names = [...this.catalogue.tools.map((t) => t.name), ...Object.keys(BACKEND_TOOLS)];
    for (const name of names) this.guardrails.registerExecutor(name, (args, ctx) => this.approvals.runApproved(ctx.approvalId, args));
    this.worker = approvedCallWorker((call) => this.guardrails.runApprovedCall(call), {
      connection: redisOptionsFromUrl(this.config.get('REDIS_URL')),
      prefix: this.config.get('GUARDRAILS_QUEUE_PREFIX'),
      concurrency: 2,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}
