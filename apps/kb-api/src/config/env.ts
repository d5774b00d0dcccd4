import { IsInt, Max, Min } from 'class-validator';
import { AuthenticatedServiceEnv } from '@platform/config';

/** Every variable kb-api reads; validated at boot (see .env.example). */
export class KbApiEnv extends AuthenticatedServiceEnv {
  override PORT: number = 3003;

  /** Health listener of the BullMQ worker process (worker.ts). */
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT: number = 3103;
}
