import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';

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
            pinoHttp: {
              name: service,
              level: config.get<string>('LOG_LEVEL') ?? 'info',
              base: { service },
              genReqId: requestIdFor,
              redact: { paths: REDACT_PATHS, censor: '[redacted]' },
              autoLogging: { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') },
              customProps: (req) => {
                const p = (req as AuthenticatedRequest).principal;
                return p ? { sub: p.sub, client_id: p.clientId, tenant_id: p.tenantId } : {};
              },
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
              },
              transport: config.get<boolean>('LOG_PRETTY') ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
            },
          }),
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
