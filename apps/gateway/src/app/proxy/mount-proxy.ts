import type { IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { ProxyService } from './proxy.service';

/**
 * Puts the proxy in front of body parsing and Nest routing: bodies stream through untouched and
 * only unmatched paths (the gateway's own health, metrics, 404) reach Nest.
 */
export function mountProxy(app: INestApplication): void {
  const proxy = app.get(ProxyService);
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!proxy.handle(req, res)) next();
  });
}
