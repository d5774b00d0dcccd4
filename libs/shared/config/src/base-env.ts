import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength, ValidateIf } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * "true"/"1"/"yes"/"on" and their opposites; anything else is passed on unchanged so validation
 * names it. Reads the raw source value: implicit conversion would already have turned any
 * non-empty string into `true`.
 */
export function toBoolean({ key, obj, value }: { key: string; obj: Record<string, unknown>; value: unknown }): unknown {
  const raw = key in obj ? obj[key] : value;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string') return raw;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off', ''].includes(v)) return false;
  return raw;
}

const urlOptions = { require_tld: false, protocols: ['postgres', 'postgresql', 'redis', 'rediss', 'http', 'https'] };

/**
 * Variables every HTTP service shares. Each app extends this with its own. Every property needs
 * an explicit type annotation: implicit conversion reads it from decorator metadata.
 */
export class BaseEnv {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsString()
  HOST: string = '127.0.0.1';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** Pretty, human-readable logs for local development; JSON otherwise. */
  @Transform(toBoolean)
  @IsBoolean()
  LOG_PRETTY: boolean = false;

  /** Time the process waits after readiness turns red before closing listeners (lets load balancers drain). */
  @IsInt()
  @Min(0)
  @Max(60000)
  SHUTDOWN_GRACE_MS: number = 0;

  /**
   * Processes serving the HTTP port in one pod (node:cluster). 1 scales by replicas alone; more
   * lets one pod use that many cores.
   */
  @IsInt()
  @Min(1)
  @Max(32)
  HTTP_PROCESSES: number = 1;
}

/** Services that own a database and use Redis. */
export class DataServiceEnv extends BaseEnv {
  @IsUrl(urlOptions)
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/postgres';

  /** Name of this service's own database on the server in DATABASE_URL (created by `migrate` when missing). */
  @IsString()
  @IsOptional()
  DATABASE_NAME?: string;

  @IsUrl(urlOptions)
  REDIS_URL: string = 'redis://127.0.0.1:6379';

  /** Key prefix for this service's queues and counters so services can share one Redis. */
  @IsString()
  @IsOptional()
  REDIS_PREFIX?: string;

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /**
   * A parameterized statement sent this many times is prepared on each pooled connection and
   * planned once there (0: never).
   */
  @IsInt()
  @Min(0)
  @Max(1000)
  DATABASE_PREPARE_AFTER: number = 3;
}

/** Services whose callers present iam-issued ES256 tokens, verified offline against iam's JWKS. */
export class AuthenticatedServiceEnv extends DataServiceEnv {
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IAM_JWKS_URL: string = 'http://127.0.0.1:3001/.well-known/jwks.json';

  /** The `iss` iam puts in its tokens: its public URL (behind the gateway). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IAM_ISSUER: string = 'http://127.0.0.1:8080';

  /**
   * Comma-separated audiences this service accepts besides its own resource identifier
   * (OAUTH_RESOURCE, where it has one): `platform` is what iam puts in tokens asked for no resource.
   * Empty accepts only tokens for the service's own resource.
   */
  @IsString()
  JWT_AUDIENCE: string = 'platform';
}

/** Services that are OAuth protected resources themselves (an MCP server), verifying DPoP proofs. */
export class ResourceServerEnv extends AuthenticatedServiceEnv {
  /**
   * Resource-server DPoP nonces (RFC 9449 §9): every DPoP proof must carry a nonce this service
   * issued (401 `use_dpop_nonce` with `DPoP-Nonce` otherwise). Off by default.
   */
  @Transform(toBoolean)
  @IsBoolean()
  DPOP_NONCE_REQUIRED: boolean = false;

  /** HMAC key of those nonces, shared by every replica (at least 32 characters); required when they are. */
  @ValidateIf((env: ResourceServerEnv) => env.DPOP_NONCE_REQUIRED === true)
  @IsString()
  @MinLength(32)
  DPOP_NONCE_SECRET?: string;
}

/** `kid:base64key[,kid:base64key…]`, each key at least 32 bytes (43+ base64 characters). */
export const KEY_RING_PATTERN = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43,}={0,2}(,[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43,}={0,2})*$/;
