import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Header, Inject, Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { joinClusterMetrics, metricsText } from './cluster-metrics';

export const METRICS_REGISTRY = Symbol.for('platform.METRICS_REGISTRY');

/** One registry per process: default Node metrics plus an HTTP duration histogram. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  joinClusterMetrics(registry);
  return registry;
}

export type HttpDurationHistogram = Histogram<'method' | 'route' | 'status'>;

/**
 * The registry's HTTP duration histogram, created on first use: the Nest middleware (which Nest
 * may construct more than once) and the lean request path record into the same series.
 */
export function httpRequestDuration(registry: Registry): HttpDurationHistogram {
  const name = 'http_server_request_duration_seconds';
  const existing = registry.getSingleMetric(name) as HttpDurationHistogram | undefined;
  return existing ?? new Histogram({
    name,
    help: 'Duration of HTTP requests by route template',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
}

@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  private readonly duration: HttpDurationHistogram;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.duration = httpRequestDuration(registry);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const end = this.duration.startTimer();
    res.once('finish', () => {
      // The route template (not the raw URL) keeps label cardinality bounded.
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      end({ method: req.method, route: `${req.baseUrl ?? ''}${route}`, status: String(res.statusCode) });
    });
    next();
  }
}

// Operational endpoints described in the runbook, not part of a service's API document.
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async metrics(): Promise<string> {
    return metricsText(this.registry);
  }
}

@Module({})
export class MetricsModule implements NestModule {
  static forRoot(service: string) {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      // A factory, not a value: each app instance (tests boot several per process) gets its own registry.
      providers: [{ provide: METRICS_REGISTRY, useFactory: () => createRegistry(service) }, HttpMetricsMiddleware],
      exports: [METRICS_REGISTRY],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('{*path}');
  }
}
