import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { BaseEnv, toBoolean } from '@platform/config';

const url = { require_tld: false, protocols: ['http', 'https'] };

/** Every variable the gateway reads; validated at boot. */
export class GatewayEnv extends BaseEnv {
  override PORT: number = 8080;

  @IsUrl(url)
  UPSTREAM_IAM_URL: string = 'http://127.0.0.1:3001';

  @IsUrl(url)
  UPSTREAM_GUARDRAILS_URL: string = 'http://127.0.0.1:3002';

  @IsUrl(url)
  UPSTREAM_KB_URL: string = 'http://127.0.0.1:3003';

  @IsUrl(url)
  UPSTREAM_EVIDENCE_URL: string = 'http://127.0.0.1:3004';

  /**
   * Optional JSON route table replacing the default, e.g. {"/oauth":"iam","/x":"http://10.0.0.5:80"}:
   * a value is an upstream name (iam, guardrails, kb, evidence) or a URL.
   */
  @IsOptional()
  @IsString()
  GATEWAY_ROUTES?: string;

  /** Time allowed for an upstream to send response headers before the gateway answers 504. */
  @IsInt()
  @Min(100)
  @Max(600000)
  GATEWAY_UPSTREAM_TIMEOUT_MS: number = 30000;

  /** Browser origins allowed to call the API (CORS), comma-separated exact origins; empty: none. */
  @IsOptional()
  @IsString()
  GATEWAY_CORS_ORIGINS?: string;

  /** Send Strict-Transport-Security (set when the gateway is reached over TLS). */
  @Transform(toBoolean)
  @IsBoolean()
  GATEWAY_HSTS: boolean = false;

  /** Keep-alive connections per upstream. */
  @IsInt()
  @Min(1)
  @Max(1024)
  GATEWAY_UPSTREAM_CONNECTIONS: number = 128;
}
