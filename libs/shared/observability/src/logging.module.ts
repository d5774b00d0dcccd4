import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import type { Logger as PinoInstance } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Paths that never carry secrets in logs, whatever shape a body or header takes. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.code_verifier',
];

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a well-formed incoming request id (so a trace spans the gateway and the service), else makes one. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

type AuthenticatedRequest = IncomingMessage & {
  principal?: { sub?: string; clientId?: string; tenantId?: string };
};

/** Who made the request, as the access log line names it (set by the auth guard before the line is written). */
export function accessLogProps(req: IncomingMessage): Record<string, string | undefined> {
  const p = (req as AuthenticatedRequest).principal;
  return p ? { sub: p.sub, client_id: p.clientId, tenant_id: p.tenantId } : {};
}

/** Health probes and scrapes would drown the access log. */
export function isQuietPath(url: string | undefined): boolean {
  return /^\/(health|metrics)/.test(url ?? '');
}

/**
 * The process's HTTP logger (pino-http's, so the same level, base fields, serializers and
 * redaction); undefined until the Nest app has been initialised.
 */
export function platformHttpLogger(): PinoInstance | undefined {
  return PinoLogger.root as PinoInstance | undefined;
}

/**
 * Writes the access line pino-http writes ("request completed" / "request aborted" / "request
 * errored" with the same fields) for a request that never went through pino-http: the lean
 * request path uses it so both paths log alike without a child logger per request.
 */
export function writeAccessLog(logger: PinoInstance, req: IncomingMessage & { id: string }, res: ServerResponse, responseTimeMs: number): void {
  const line: Record<string, unknown> = { req, ...accessLogProps(req), res, responseTime: responseTimeMs };
  if (res.statusCode >= 500) {
    line['err'] = new Error(`failed with status code ${res.statusCode}`);
    logger.info(line, 'request errored');
    return;
  }
  logger.info(line, res.writableEnded ? 'request completed' : 'request aborted');
}

/**
 * Query parameters that carry credentials when a client puts them in a URL (RFC 6750 §2.3 allows
 * `access_token`), or when a server sends one back in a redirect: an authorization code, or a
 * pushed request's `request_uri` (RFC 9126), which continues an authorization for whoever holds it.
 */
const CREDENTIAL_PARAMETERS = /^(?:access_token|refresh_token|id_token|token|client_secret|client_assertion|code|code_verifier|password|secret|api_key|apikey|key|signature|sig|request_uri)$/i;

/** How deep a URL carried in a parameter (a sign-in page's `return_to`) is looked into. */
const NESTED_URL_DEPTH = 2;

const decoded = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

/**
 * The URL as the access log shows it: the values of credential-bearing query parameters replaced,
 * so a token a client put in the query string never lands in the logs. A parameter whose value is
 * itself a URL with a query (a sign-in page's `return_to=/oauth/authorize?…request_uri=…`) is
 * censored the same way inside, then encoded again.
 */
export function loggedUrl(url: string, depth = NESTED_URL_DEPTH): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      // A malformed escape in the name is judged as sent.
      if (CREDENTIAL_PARAMETERS.test((decoded(name) ?? name).trim())) return `${name}=[redacted]`;
      const value = depth > 0 ? decoded(pair.slice(eq + 1)) : undefined;
      if (value === undefined || !value.includes('?')) return pair;
      const inner = loggedUrl(value, depth - 1);
      return inner === value ? pair : `${name}=${encodeURIComponent(inner)}`;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * The response as the access log shows it (pino's standard fields): a `Location` header is a URL
 * like any request's, and carries the authorization code (or a pushed request's request_uri)
 * iam sends the browser on with, so it is censored as request URLs are.
 */
export function loggedResponse(res: { statusCode: number | null; headers: Record<string, unknown> }): { statusCode: number | null; headers: Record<string, unknown> } {
  const location = res.headers?.['location'];
  if (typeof location !== 'string') return res;
  return { statusCode: res.statusCode, headers: { ...res.headers, location: loggedUrl(location) } };
}

/** The HTTP logger's settings: JSON to stdout with request id, principal fields and secret redaction. */
export function pinoHttpOptions(service: string, level: string, pretty: boolean): PinoHttpOptions {
  return {
    name: service,
    level,
    // Where several processes serve one pod (HTTP_PROCESSES), the pid tells their lines apart.
    base: cluster.isWorker ? { service, pid: process.pid } : { service },
    genReqId: requestIdFor,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    autoLogging: { ignore: (req) => isQuietPath(req.url) },
    customProps: accessLogProps,
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggedUrl(req.url) }),
      res: loggedResponse,
    },
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  };
}

@Module({})
export class LoggingModule {
  /** JSON logs to stdout with request id, principal fields and secret redaction. */
  static forRoot(service: string): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            pinoHttp: pinoHttpOptions(service, config.get<string>('LOG_LEVEL') ?? 'info', config.get<boolean>('LOG_PRETTY') ?? false),
          }),
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
