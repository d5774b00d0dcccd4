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
export interface WorkerHandle {
  context: INestApplicationContext;
  /** Base URL of the health listener. */
  healthUrl: string;
  /** Drains (readiness red), closes the health listener and the Nest context (BullMQ waits for active jobs). */
  close(): Promise<void>;
}

export async function startWorker(workerModule: Type<unknown>): Promise<WorkerHandle> {
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
  const healthUrl = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
  logger.log(`worker health on ${healthUrl}`);
  const stopListening = () => server.close();
  process.once('SIGTERM', stopListening);
  process.once('SIGINT', stopListening);
  return {
    context: ctx,
    healthUrl,
    close: async () => {
      ctx.get(DrainingService).startDraining();
      stopListening();
      await ctx.close();
    },
  };
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
