import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

/**
 * The "draining" flag: set when shutdown begins so /health/ready turns red and load balancers
 * stop sending traffic before the listener closes. `graceMs` is how long we keep serving after
 * turning red (Kubernetes needs a moment to take the pod out of the endpoints).
 */
@Injectable()
export class DrainingService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private draining = false;
  graceMs = 0;

  get isDraining(): boolean {
    return this.draining;
  }

  startDraining(): void {
    this.draining = true;
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.startDraining();
    this.logger.log(`draining (${signal ?? 'close'}); readiness is now failing`);
    if (this.graceMs > 0) await new Promise((r) => setTimeout(r, this.graceMs));
  }
}
