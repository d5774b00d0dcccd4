import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runOrExit, startHttpApp } from '@platform/runtime';
import { AppModule } from './app.module';
import { ProxyService } from './app/proxy/proxy.service';

runOrExit('gateway', () =>
  startHttpApp(AppModule, {
    // The proxy runs before body parsing and Nest routing: bodies stream through untouched and
    // only unmatched paths (health, metrics, 404) reach Nest.
    configure: (app) => {
      const proxy = app.get(ProxyService);
      app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        if (!proxy.handle(req, res)) next();
      });
    },
  }),
);
