import { ExceptionFilter, INestApplication, Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DrainingService } from '@platform/health';
import { createValidationPipe, ProblemDetailsFilter } from '@platform/observability';
import { Logger } from 'nestjs-pino';
import { answerClientErrors, applyEdgeHygiene, BodyLimitGroup, ClientErrorBody } from './edge-hygiene';
import { recordLeanAppSetup } from './fast-routes/lean-app-setup';
import { OpenApiSpec, ServedOpenApiDocument } from './openapi';
import { PlatformExpressAdapter } from './platform-express-adapter';

/** Body limit of a service that names no config value for it (Express's own default, 100 KiB). */
const DEFAULT_BODY_LIMIT = 100 * 1024;

export interface HttpAppOptions {
  /** Global filter; areas with their own error shape pass theirs (OAuth, guardrails envelope). */
  filter?: ExceptionFilter;
  /** App-specific setup (Swagger, cookie parsers, the gateway's proxy); runs before Nest registers body parsers and routes. */
  configure?: (app: INestApplication) => void | Promise<void>;
  /** Name of a numeric config value (bytes) that limits bodies of routes in no group of `edge`; larger bodies answer 413. */
  bodyLimitEnv?: string;
  /**
   * The platform's edge hygiene (NUL/invalid UTF-8, JSON depth, unsafe integers, per-group body
   * limits) in place of Nest's default body parsers, and JSON answers to requests Node's HTTP
   * parser refuses (`clientErrorBody` shapes them; `{error, message}` by default); every API
   * service turns it on.
   */
  edge?: { bodyLimits?: BodyLimitGroup[]; clientErrorBody?: ClientErrorBody };
  /** What the service's generated OpenAPI document says beyond its controllers and DTOs; bound to ServedOpenApiDocument. */
  openapi?: OpenApiSpec;
}

/** Applies the platform's shared HTTP setup to an app (also used by e2e tests before init()). */
export function applyPlatformHttpSetup(app: INestApplication, options: HttpAppOptions = {}): void {
  const pipe = createValidationPipe();
  const filter = options.filter ?? new ProblemDetailsFilter();
  app.useGlobalPipes(pipe);
  app.useGlobalFilters(filter);
  // Lean routes (@LeanRoute) apply the same global pipe and filter.
  recordLeanAppSetup(app.getHttpAdapter().getInstance(), { pipes: [pipe], filters: [filter] });
  app.enableShutdownHooks();
  const express = app.getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  express.set('trust proxy', 'loopback, linklocal, uniquelocal');
  if (options.openapi) app.get(ServedOpenApiDocument).bind(app, options.openapi);
}

/**
 * Creates, configures and starts a service's HTTP server. The process stops with a clear message
 * when env validation fails (ConfigModule throws during create).
 */
export async function startHttpApp(rootModule: Type<unknown>, options: HttpAppOptions = {}): Promise<INestApplication> {
  // Requests are built with Express's prototypes from the start (see PlatformExpressAdapter).
  const app = await NestFactory.create<NestExpressApplication>(rootModule, new PlatformExpressAdapter(), {
    bufferLogs: true,
    // Let boot errors (bad env, unreachable database) reach the caller instead of aborting
    // the process from inside Nest, so main.ts can print one clear line and exit 1.
    abortOnError: false,
    // With edge hygiene the app's parsers are the hygiene layer's own.
    bodyParser: !options.edge,
  });
  app.useLogger(app.get(Logger));
  const bodyLimit = options.bodyLimitEnv ? app.get(ConfigService).getOrThrow<number>(options.bodyLimitEnv) : undefined;
  if (options.edge) {
    const express = app.getHttpAdapter().getInstance();
    const prelude = applyEdgeHygiene(express, { defaultBodyLimit: bodyLimit ?? DEFAULT_BODY_LIMIT, bodyLimits: options.edge.bodyLimits });
    // What every request passes before routing: lean routes (@LeanRoute) run the same.
    recordLeanAppSetup(express, { prelude });
    answerClientErrors(app.getHttpServer(), options.edge.clientErrorBody);
  } else if (bodyLimit !== undefined) app.useBodyParser('json', { limit: bodyLimit });
  applyPlatformHttpSetup(app, options);
  await options.configure?.(app);
  const config = app.get(ConfigService);
  app.get(DrainingService).graceMs = config.get<number>('SHUTDOWN_GRACE_MS') ?? 0;
  const port = config.get<number>('PORT') ?? 3000;
  const host = config.get<string>('HOST') ?? '127.0.0.1';
  await app.listen(port, host);
  app.get(Logger).log(`listening on http://${host}:${port}`);
  return app;
}

/** For main.ts/worker.ts: start, or print why not (naming the bad env variable) and exit 1. */
export function runOrExit(service: string, start: () => Promise<unknown>): void {
  start().catch((e: unknown) => {
    const detail = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${service} cannot start: ${detail}\n`);
    process.exit(1);
  });
}
