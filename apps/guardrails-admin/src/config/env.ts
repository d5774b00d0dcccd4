import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { AuthenticatedServiceEnv, toBoolean } from '@platform/config';

/** Every variable guardrails-admin reads; validated at boot (see .env.example). */
export class GuardrailsAdminEnv extends AuthenticatedServiceEnv {
  override PORT: number = 3002;

  /** `api.enabled`: the admin API routes exist only when true (off by default). */
  @Transform(toBoolean)
  @IsBoolean()
  GUARDRAILS_API_ENABLED: boolean = false;

  /** `api.prefix`: where the routes are mounted. */
  @Matches(/^[a-z0-9][a-z0-9/_-]*[a-z0-9]$/, { message: 'GUARDRAILS_API_PREFIX must be a path like guardrails/api (no leading or trailing slash)' })
  GUARDRAILS_API_PREFIX: string = 'guardrails/api';

  /**
   * `api.middleware`: comma-separated guards every route passes, in order. `jwt` is an iam access
   * token carrying `guardrails:admin`. With the API enabled, an empty list refuses to boot.
   */
  @IsString()
  GUARDRAILS_API_MIDDLEWARE: string = 'jwt';

  /** JSON object of dotted setting keys: the file defaults that stored overrides are laid over. */
  @IsOptional()
  @IsString()
  GUARDRAILS_SETTINGS_DEFAULTS?: string;

  /** `hitl_requests.store`: none (null), array (in process) or database. */
  @IsIn(['null', 'array', 'database'])
  GUARDRAILS_HITL_REQUESTS_STORE: 'null' | 'array' | 'database' = 'null';

  /** JSON object mapping a store group (audit, firewall_log, output_stats, settings, settings_audit, hitl_requests) to its table. */
  @IsOptional()
  @IsString()
  GUARDRAILS_TABLES?: string;

  /** Redis pub/sub channel of SettingsChanged; every host of one deployment must share it. */
  @IsString()
  GUARDRAILS_SETTINGS_CHANNEL: string = 'guardrails.SettingsChanged';

  /** BullMQ prefix of the approved-calls queue; shared by every host that owns tools. */
  @IsString()
  GUARDRAILS_QUEUE_PREFIX: string = 'guardrails';

  /** Time budget for matching one prompt in the sandbox (ms); past it the rule errors. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  GUARDRAILS_MATCH_TIMEOUT_MS: number = 50;

  /** Largest accepted JSON body in bytes (sandbox prompts, settings); larger answers 413. */
  @IsInt()
  @Min(1024)
  @Max(16 * 1024 * 1024)
  GUARDRAILS_MAX_BODY_BYTES: number = 1024 * 1024;

  /** Lifetime of an approval token in minutes (0: never expires). */
  @IsInt()
  @Min(0)
  GUARDRAILS_APPROVAL_TTL_MINUTES: number = 1440;
}
