import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { ProxyService } from './proxy.service';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the proxy in front of Express itself: a routed request goes straight from the HTTP server
 * to the upstream (no Express or Nest work per request, bodies stream untouched); only unmatched
 * paths (the gateway's own health, metrics, 404) reach the Nest application.
 */
export function mountProxy(app: INestApplication): void {
  const proxy = app.get(ProxyService);
  const server = app.getHttpServer() as Server;
  const appListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (proxy.handle(req, res)) return;
    for (const listener of appListeners) listener(req, res);
  });
}
