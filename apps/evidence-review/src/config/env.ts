import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { ResourceServerEnv, toBoolean } from '@platform/config';

/** Every variable evidence-review reads; validated at boot (see .env.example). */
export class EvidenceReviewEnv extends ResourceServerEnv {
  override PORT: number = 3004;

  /**
   * This service's RFC 8707 resource identifier: its MCP server's public URL (through the gateway).
   * Tokens whose `aud` names it are accepted besides JWT_AUDIENCE; its RFC 9728 metadata is served
   * at /.well-known/oauth-protected-resource<path>, and DPoP proofs' `htu` use its origin.
   */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OAUTH_RESOURCE: string = 'http://127.0.0.1:8080/evidence-risk-review/mcp';

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
