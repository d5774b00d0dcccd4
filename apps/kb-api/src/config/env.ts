import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsNumber, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, Max, Min, ValidateIf } from 'class-validator';
import { ResourceServerEnv, KEY_RING_PATTERN, toBoolean } from '@platform/config';

/** Every variable kb-api reads; validated at boot (see .env.example). */
export class KbApiEnv extends ResourceServerEnv {
  override PORT: number = 3003;

  /** Health listener of the BullMQ worker process (worker.ts). */
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT: number = 3103;

  /** Envelope-encryption key ring (TOTP seeds). First key encrypts. */
  @Matches(KEY_RING_PATTERN, { message: 'CRYPTO_KEYRING must be "kid:base64key[,kid:base64key]" with 32-byte keys' })
  CRYPTO_KEYRING: string;

  /** Peppers for the keyed hashes of tokens, sessions and reset links. First one hashes. */
  @Matches(KEY_RING_PATTERN, { message: 'SECRET_PEPPERS must be "kid:base64key[,kid:base64key]" with 32-byte keys' })
  SECRET_PEPPERS: string;

  /**
   * This service's RFC 8707 resource identifier: its MCP server's public URL (through the gateway).
   * Tokens whose `aud` names it are accepted besides JWT_AUDIENCE; its RFC 9728 metadata is served
   * at /.well-known/oauth-protected-resource<path>, and DPoP proofs' `htu` use its origin.
   */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OAUTH_RESOURCE: string = 'http://127.0.0.1:8080/mcp/kb';

  /** Public URL of the knowledge-base app (links in mails). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  KB_APP_URL: string = 'http://127.0.0.1:8080';

  /** Idle lifetime of a cookie session, minutes. */
  @IsInt()
  @Min(5)
  @Max(60 * 24 * 90)
  KB_SESSION_TTL_MIN: number = 120;

  /** Secure flag on cookies; on by default in production. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  KB_COOKIE_SECURE?: boolean;

  /** Failed login or token-issue attempts per email and IP before 429 (window KB_LOGIN_DECAY_SEC). */
  @IsInt()
  @Min(1)
  KB_LOGIN_MAX_ATTEMPTS: number = 5;

  @IsInt()
  @Min(1)
  KB_LOGIN_DECAY_SEC: number = 60;

  /** `throttle:forgot`: forgot-password requests per minute per IP. */
  @IsInt()
  @Min(1)
  KB_FORGOT_PER_MINUTE: number = 3;

  /** SMTP transport, e.g. smtp://user:pass@mail.internal:587; unset: mails go to the kb_mail_outbox table. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['smtp', 'smtps'] })
  KB_MAIL_SMTP_URL?: string;

  @IsEmail({ require_tld: false })
  KB_MAIL_FROM: string = 'kb@localhost';

  /** Largest accepted JSON body in bytes (an ingest batch); larger answers 413. */
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024 * 1024)
  KB_MAX_BODY_BYTES: number = 64 * 1024 * 1024;

  /** Where ingested originals are written: `local` (the directory KB_STORAGE_PATH) or `s3` (a bucket, KB_S3_*). */
  @IsIn(['local', 's3'])
  KB_STORAGE_DRIVER: 'local' | 's3' = 'local';

  /** Directory of the local storage driver. */
  @IsString()
  KB_STORAGE_PATH: string = '.data/kb-documents';

  /** S3-compatible endpoint (may carry a path); unset: AWS's endpoint of KB_S3_REGION. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  KB_S3_ENDPOINT?: string;

  @Matches(/^[a-z0-9-]{1,40}$/, { message: 'KB_S3_REGION must be a region name such as eu-central-1' })
  KB_S3_REGION: string = 'us-east-1';

  @ValidateIf((env: KbApiEnv) => env.KB_STORAGE_DRIVER === 's3')
  @Matches(/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/, { message: 'KB_S3_BUCKET is required when KB_STORAGE_DRIVER=s3 (3-63 lowercase letters, digits, dots, hyphens)' })
  KB_S3_BUCKET?: string;

  /** Folder inside the bucket that holds the originals, e.g. `kb/`. */
  @IsOptional()
  @Matches(/^(?!.*(^|\/)\.{1,2}(\/|$))[A-Za-z0-9!_.*'()/-]{1,200}$/, { message: 'KB_S3_PREFIX must be letters, digits and !_.*\'()-/ without "." or ".." segments' })
  KB_S3_PREFIX?: string;

  @ValidateIf((env: KbApiEnv) => env.KB_STORAGE_DRIVER === 's3')
  @IsNotEmpty({ message: 'KB_S3_ACCESS_KEY_ID is required when KB_STORAGE_DRIVER=s3' })
  KB_S3_ACCESS_KEY_ID?: string;

  /** Never logged: only its absence fails validation, so a boot error never shows a value. */
  @ValidateIf((env: KbApiEnv) => env.KB_STORAGE_DRIVER === 's3')
  @IsNotEmpty({ message: 'KB_S3_SECRET_ACCESS_KEY is required when KB_STORAGE_DRIVER=s3' })
  KB_S3_SECRET_ACCESS_KEY?: string;

  /** Session token of temporary credentials. */
  @IsOptional()
  @IsString()
  KB_S3_SESSION_TOKEN?: string;

  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which MinIO and most self-hosted stores need. */
  @Transform(toBoolean)
  @IsBoolean()
  KB_S3_FORCE_PATH_STYLE: boolean = false;

  /** Bound of one storage request, body included. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  KB_S3_TIMEOUT_MS: number = 30_000;

  /** Embeddings for vector retrieval (docs/kb-vector-retrieval.md): `none`, or an OpenAI-compatible /v1/embeddings. */
  @IsIn(['none', 'openai'])
  KB_EMBEDDINGS_PROVIDER: string = 'none';

  /** Default: KB_LLM_BASE_URL. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  KB_EMBEDDINGS_BASE_URL?: string;

  /** Default: KB_LLM_API_KEY. */
  @IsOptional()
  @IsString()
  KB_EMBEDDINGS_API_KEY?: string;

  /** Required with a provider; recorded with every vector, so a model change never mixes spaces. */
  @ValidateIf((e: KbApiEnv) => e.KB_EMBEDDINGS_PROVIDER !== 'none')
  @IsString()
  @IsNotEmpty()
  KB_EMBEDDINGS_MODEL?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(16000)
  KB_EMBEDDINGS_DIMENSIONS?: number;

  @IsInt()
  @Min(100)
  @Max(300_000)
  KB_EMBEDDINGS_TIMEOUT_MS: number = 30_000;

  @IsInt()
  @Min(1)
  @Max(2048)
  KB_EMBEDDINGS_BATCH_SIZE: number = 64;

  /**
   * Megabytes of heap each kb-api process may give its in-memory lexical index, over all tenants
   * (ordinary text takes about 1.8 KB a chunk by its estimate, 1.5 KB measured: 180 MB for 100,000); 0 ranks every query in SQL. A
   * tenant that does not fit is ranked in SQL (docs/kb-api.md, "Ranking in memory").
   */
  @IsInt()
  @Min(0)
  @Max(65_536)
  KB_LEXICAL_INDEX_MAX_MB: number = 320;

  /** Cosine similarity a vector hit needs to join the fusion. */
  @IsNumber()
  @Min(0)
  @Max(1)
  KB_VECTOR_MIN_SIMILARITY: number = 0.5;

  /** Comma-separated absolute directories filesystem connectors may read under; unset: none. */
  @IsOptional()
  @IsString()
  KB_CONNECTOR_FS_ROOTS?: string;

  /** Comma-separated hosts, addresses or CIDR ranges web connectors may reach although private or loopback. */
  @IsOptional()
  @IsString()
  KB_CONNECTOR_WEB_ALLOWED_PRIVATE?: string;

  /** Project of an ingested document that names none. */
  @Matches(/^.{1,120}$/)
  KB_INGEST_DEFAULT_PROJECT: string = 'default';

  /**
   * How long the worker holds a job's lock without renewing it; a killed worker's jobs go back to
   * the queue once it lapses (BullMQ's stalled-job check runs at the same interval).
   */
  @IsInt()
  @Min(500)
  @Max(600_000)
  KB_WORKER_LOCK_MS: number = 30_000;

  /** Ingest jobs one worker process runs at once (extraction runs on a thread, indexing in Postgres). */
  @IsInt()
  @Min(1)
  @Max(64)
  KB_WORKER_CONCURRENCY: number = 4;

  /** Answering provider: `none` (extractive answer, no tokens), `openai` (an OpenAI-compatible endpoint) or `anthropic` (the Messages API). */
  @IsIn(['none', 'openai', 'anthropic'])
  KB_CHAT_PROVIDER: 'none' | 'openai' | 'anthropic' = 'none';

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  KB_LLM_BASE_URL?: string;

  @IsOptional()
  @IsString()
  KB_LLM_API_KEY?: string;

  @IsOptional()
  @IsString()
  KB_LLM_MODEL?: string;

  @IsInt()
  @Min(100)
  @Max(300_000)
  KB_LLM_TIMEOUT_MS: number = 30_000;

  /** Anonymous chat (the `anonymous` flag); off unless configured. */
  @Transform(toBoolean)
  @IsBoolean()
  KB_ANONYMOUS_CHAT_ENABLED: boolean = false;

  /** The promotion pipeline (suggest, promote, approve, reject); off unless configured (503 promotion_disabled). */
  @Transform(toBoolean)
  @IsBoolean()
  KB_PROMOTION_ENABLED: boolean = false;

  /** How long a promotion's single-use approval token stays valid, minutes. */
  @IsInt()
  @Min(1)
  @Max(60 * 24 * 30)
  KB_PROMOTION_APPROVAL_TTL_MIN: number = 60 * 24;

  /** Database of the guardrails stores on the same server (audit, settings, approvals). */
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/)
  KB_GUARDRAILS_DATABASE_NAME: string = 'guardrails';

  /** Redis channel of guardrails SettingsChanged (shared with guardrails-admin). */
  @IsString()
  GUARDRAILS_SETTINGS_CHANNEL: string = 'guardrails.SettingsChanged';

  /** BullMQ prefix of the guardrails' approved-calls queue (the same as guardrails-admin's): approved kb tool calls run in the kb worker. */
  @Matches(/^[A-Za-z0-9:_.-]{1,100}$/)
  GUARDRAILS_QUEUE_PREFIX: string = 'guardrails';

  /** Lifetime of the approval token of a parked kb tool call, minutes (0: never expires). */
  @IsInt()
  @Min(0)
  @Max(60 * 24 * 30)
  GUARDRAILS_APPROVAL_TTL_MINUTES: number = 60 * 24;

  /** Development seed only: a directory whose markdown files are ingested as demo documents. */
  @IsOptional()
  @IsString()
  KB_DEMO_DOCUMENTS_DIR?: string;

  /** Demo super-admin of tenant `default` who also holds platform.admin (seeded); required in production. */
  @IsOptional()
  @IsString()
  KB_BOOTSTRAP_ADMIN_EMAIL?: string;

  @IsOptional()
  @IsString()
  KB_BOOTSTRAP_ADMIN_PASSWORD?: string;
}
