import { IsInt, Max, Min } from 'class-validator';
import { AuthenticatedServiceEnv } from '@platform/config';

/** Every variable iam reads; validated at boot (see .env.example). */
export class IamEnv extends AuthenticatedServiceEnv {
  override PORT: number = 3001;

  /** Health listener of the BullMQ worker process (worker.ts). */
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT: number = 3101;
}
