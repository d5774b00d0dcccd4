import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { AuthenticatedServiceEnv, toBoolean } from '@platform/config';

/** Every variable evidence-review reads; validated at boot (see .env.example). */
export class EvidenceReviewEnv extends AuthenticatedServiceEnv {
  override PORT: number = 3004;

  /** `api.enabled`: the HTTP review routes exist only when true (off by default). */
  @Transform(toBoolean)
  @IsBoolean()
  EVIDENCE_API_ENABLED: boolean = false;

  /** Largest accepted request body in bytes; larger answers 413. */
  @IsInt()
  @Min(1024)
  @Max(50 * 1024 * 1024)
  EVIDENCE_MAX_BODY_BYTES: number = 2 * 1024 * 1024;
}
