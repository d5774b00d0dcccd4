import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { AuthenticatedServiceEnv, KEY_RING_PATTERN, toBoolean } from '@platform/config';

/** Every variable kb-api reads; validated at boot (see .env.example). */
export class KbApiEnv extends AuthenticatedServiceEnv {
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

  /** Demo super-admin of tenant `default` who also holds platform.admin (seeded); required in production. */
  @IsOptional()
  @IsString()
  KB_BOOTSTRAP_ADMIN_EMAIL?: string;

  @IsOptional()
  @IsString()
  KB_BOOTSTRAP_ADMIN_PASSWORD?: string;
}
