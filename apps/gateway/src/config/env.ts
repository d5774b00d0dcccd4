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

  /**
   * Proxies in front of the gateway (an ingress, a load balancer) whose X-Forwarded-For and
   * X-Forwarded-Proto are believed: a number of hops (`1`: one ingress), or addresses, CIDR ranges
   * and loopback / linklocal / uniquelocal, comma-separated. Empty (default): none, the client is
   * the TCP peer.
   */
  @IsOptional()
  @IsString()
  GATEWAY_TRUSTED_PROXIES?: string;

  /** Send Strict-Transport-Security (set when the gateway is reached over TLS). */
  @Transform(toBoolean)
  @IsBoolean()
  GATEWAY_HSTS: boolean = false;

  /** Keep-alive connections per upstream, and so the requests in flight to it at once. */
  @IsInt()
  @Min(1)
  @Max(1024)
  GATEWAY_UPSTREAM_CONNECTIONS: number = 128;

  /** Longest wait for a free connection to an upstream before the gateway answers 503 with Retry-After. */
  @IsInt()
  @Min(10)
  @Max(600000)
  GATEWAY_QUEUE_TIMEOUT_MS: number = 10000;

  /** Longest pause in a client's request body before the gateway answers 408 and closes the connection. */
  @IsInt()
  @Min(10)
  @Max(600000)
  GATEWAY_CLIENT_BODY_TIMEOUT_MS: number = 30000;

  /**
   * A request body's whole allowance: the time the gateway spends waiting for it may not exceed
   * this plus what its bytes earn at GATEWAY_CLIENT_BODY_MIN_RATE (408 after), so a body trickled
   * a byte at a time, each pause under GATEWAY_CLIENT_BODY_TIMEOUT_MS, still ends.
   */
  @IsInt()
  @Min(100)
  @Max(600000)
  GATEWAY_CLIENT_BODY_DEADLINE_MS: number = 20000;

  /**
   * Bytes per second a request body must average beyond GATEWAY_CLIENT_BODY_DEADLINE_MS (each
   * byte received adds 1000 / rate ms to its allowance). 16 KiB/s: a 1 MiB body has 84 s.
   */
  @IsInt()
  @Min(512)
  @Max(1073741824)
  GATEWAY_CLIENT_BODY_MIN_RATE: number = 16384;

  /**
   * A request body up to this size is read whole by the gateway before it takes a connection to the
   * upstream; a larger one its first this many bytes, the rest streaming as it arrives.
   */
  @IsInt()
  @Min(1024)
  @Max(16777216)
  GATEWAY_BODY_BUFFER_BYTES: number = 65536;

  /**
   * Bytes of request bodies all requests together may hold read ahead (each counts up to
   * GATEWAY_BODY_BUFFER_BYTES). A body that does not fit in what is left is answered 503 with
   * Retry-After at once. 64 MiB: a thousand full read-aheads.
   */
  @IsInt()
  @Min(1024)
  @Max(1073741824)
  GATEWAY_READ_AHEAD_BUDGET_BYTES: number = 67108864;

  /**
   * Requests from one client address that may hold connections to one upstream while still sending
   * a body larger than GATEWAY_BODY_BUFFER_BYTES; more answer 429 with Retry-After.
   */
  @IsInt()
  @Min(1)
  @Max(1024)
  GATEWAY_UPLOADS_PER_CLIENT: number = 16;

  /**
   * Longest time a client may leave an answer's bytes untaken (not one byte read) before the gateway
   * cuts its connection, cancelling the upstream request and freeing its connection slot.
   */
  @IsInt()
  @Min(10)
  @Max(600000)
  GATEWAY_CLIENT_SEND_TIMEOUT_MS: number = 30000;

  /** Time a client has to send its request line and headers (408 after that). */
  @IsInt()
  @Min(100)
  @Max(600000)
  GATEWAY_CLIENT_HEADERS_TIMEOUT_MS: number = 20000;

  /**
   * Optional JSON of body limits in bytes by route prefix, over the defaults per upstream
   * (iam 1 MiB, guardrails 2 MiB, evidence 4 MiB, kb 64 MiB), e.g. {"/api/kb":134217728}.
   */
  @IsOptional()
  @IsString()
  GATEWAY_BODY_LIMITS?: string;
}
