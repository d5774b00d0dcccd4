import type { Server } from 'node:http';
import type { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { DrainingService } from '@platform/health';
import { httpRequestDuration, METRICS_REGISTRY, platformHttpLogger } from '@platform/observability';
import type { Registry } from 'prom-client';
import { FastRoute, mountFastRoutes } from './fast-router';

function optional<T>(moduleRef: ModuleRef, token: unknown): T | undefined {
  try {
    return moduleRef.get<T>(token as never, { strict: false });
  } catch {
    return undefined;
  }
}

/**
 * Mounts lean routes on a Nest app's HTTP server with the platform's essentials taken from its
 * container (metrics registry, draining flag, HTTP logger). Call it from a provider's
 * onApplicationBootstrap; returns false where there is no Express HTTP server (CLI, worker).
 */
export function mountFastRoutesInApp(moduleRef: ModuleRef, adapterHost: HttpAdapterHost, routes: FastRoute[]): boolean {
  const adapter = adapterHost.httpAdapter;
  if (!adapter || adapter.getType() !== 'express') return false;
  const server = adapter.getHttpServer() as Server | undefined;
  if (!server) return false;
  const registry = optional<Registry>(moduleRef, METRICS_REGISTRY);
  const draining = optional<DrainingService>(moduleRef, DrainingService);
  mountFastRoutes(server, routes, {
    express: adapter.getInstance(),
    logger: platformHttpLogger,
    duration: registry ? httpRequestDuration(registry) : undefined,
    isDraining: draining ? () => draining.isDraining : undefined,
  });
  return true;
}
