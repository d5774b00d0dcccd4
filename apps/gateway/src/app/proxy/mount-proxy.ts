import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EdgePolicy, parseCorsOrigins } from '../edge/edge-policy';
import { ProxyService } from './proxy.service';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the edge policy (security headers, CORS) and the proxy in front of Express itself: a routed request goes straight from the HTTP server
 * to the upstream (no Express or Nest work per request, bodies stream untouched); only unmatched
 * paths (the gateway's own health, metrics, 404) reach the Nest application.
 */
export function mountProxy(app: INestApplication): void {
  const proxy = app.get(ProxyService);
  const config = app.get(ConfigService);
  const edge = new EdgePolicy({ corsOrigins: parseCorsOrigins(config.get<string>('GATEWAY_CORS_ORIGINS')), hsts: config.get<boolean>('GATEWAY_HSTS') === true });
  const server = app.getHttpServer() as Server;
  const appListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (edge.preflight(req, res)) return;
    edge.applyDefaults(req, res);
    if (proxy.handle(req, res)) return;
    for (const listener of appListeners) listener(req, res);
  });
}
