import { createServer, Server } from 'node:http';
import { INestApplicationContext, Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { DrainingService, ReadinessService } from '@platform/health';
import { Logger } from 'nestjs-pino';

/**
 * A worker is an application context (no HTTP API) plus a tiny health listener on
 * WORKER_HEALTH_PORT, so Kubernetes can probe it like the API. On SIGTERM the draining flag turns
 * readiness red and Nest's shutdown closes BullMQ workers, which wait for active jobs.
 */
export async function startWorker(workerModule: Type<unknown>): Promise<INestApplicationContext> {
  const ctx = await NestFactory.createApplicationContext(workerModule, { bufferLogs: true, abortOnError: false });
  const logger = ctx.get(Logger);
  ctx.useLogger(logger);
  ctx.enableShutdownHooks();
  const config = ctx.get(ConfigService);
  const port = config.get<number>('WORKER_HEALTH_PORT') ?? 0;
  const host = config.get<string>('HOST') ?? '127.0.0.1';
  const server = healthServer(ctx.get(ReadinessService), ctx.get(DrainingService));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  logger.log(`worker health on http://${host}:${typeof address === 'object' && address ? address.port : port}`);
  const close = () => server.close();
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  return ctx;
}

export function healthServer(readiness: ReadinessService, draining: DrainingService): Server {
  return createServer(async (req, res) => {
    if (req.url === '/health/live') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (req.url === '/health/ready') {
      const report = await readiness.report();
      const ok = report.status === 'ok' && !draining.isDraining;
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(report));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
}
