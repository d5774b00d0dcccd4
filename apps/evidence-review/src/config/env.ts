import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { AuthenticatedServiceEnv, loadEnv, toBoolean } from '@platform/config';

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

  /** `llm.enabled`: the optional LLM step (needs EVIDENCE_LLM_BASE_URL and EVIDENCE_LLM_MODEL). */
  @Transform(toBoolean)
  @IsBoolean()
  EVIDENCE_LLM_ENABLED: boolean = false;

  /** OpenAI-compatible endpoint, e.g. https://llm.internal/v1. */
  @IsOptional()
  @IsString()
  EVIDENCE_LLM_BASE_URL?: string;

  @IsOptional()
  @IsString()
  EVIDENCE_LLM_API_KEY?: string;

  @IsOptional()
  @IsString()
  EVIDENCE_LLM_MODEL?: string;

  /** JSON: engine config (`tiers`, `tier_hints`, `profiles`), validated at start. */
  @IsOptional()
  @IsString()
  EVIDENCE_ENGINE_CONFIG?: string;
}

/** Whether the review routes exist; read once when the module graph is built. */
export function reviewApiEnabled(): boolean {
  return loadEnv(EvidenceReviewEnv).EVIDENCE_API_ENABLED;
}
