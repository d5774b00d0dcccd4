import * as http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/** The classes the HTTP server builds each request and response from. */
export interface MessageClasses {
  IncomingMessage: typeof http.IncomingMessage;
  ServerResponse: typeof http.ServerResponse;
}

const CLASSES = Symbol.for('platform.messageClasses');
type AppWithClasses = Express & { [CLASSES]?: MessageClasses };

/**
 * Request and response classes whose prototypes are the app's `app.request` and `app.response`,
 * so every request is born with the prototype Express would give it.
 *
 * Why: Express's `app.handle` (and the lean path) call `Object.setPrototypeOf(req, app.request)`
 * on every request. On an object Node's HTTP parser already built, that gives each request a map
 * (hidden class) of its own in V8, and every later property read or write on it misses its inline
 * cache: ≈ 1 µs per property added (passport alone adds seven per request) against ≈ 5 ns on a
 * request built with the right prototype. With these classes the call finds the prototype already
 * in place and changes nothing. The chain is the one Express builds (app.request → express's
 * request → IncomingMessage), one link longer, so `req.app`, `req.ip`, `instanceof` and the rest
 * behave as before.
 */
export function messageClassesOf(app: Express): MessageClasses {
  const host = app as AppWithClasses;
  const known = host[CLASSES];
  if (known) return known;
  class PlatformRequest extends http.IncomingMessage {}
  class PlatformResponse extends http.ServerResponse {}
  Object.setPrototypeOf(PlatformRequest.prototype, app.request);
  Object.setPrototypeOf(PlatformResponse.prototype, app.response);
  // `req.constructor` stays IncomingMessage (ServerResponse) as before: code that tells a server
  // request by its constructor (undici's destroy does) sees no difference. Node builds requests
  // from the class itself, not from this property.
  delete (PlatformRequest.prototype as { constructor?: unknown }).constructor;
  delete (PlatformResponse.prototype as { constructor?: unknown }).constructor;
  app.request = PlatformRequest.prototype as Express['request'];
  app.response = PlatformResponse.prototype as Express['response'];
  // (Node types ServerResponse generically over the request class; this one serves any request.)
  const classes: MessageClasses = { IncomingMessage: PlatformRequest, ServerResponse: PlatformResponse as unknown as typeof http.ServerResponse };
  host[CLASSES] = classes;
  return classes;
}

/**
 * Nest's Express adapter with an HTTP server that builds requests and responses from
 * `messageClassesOf(app)`. Everything else is Nest's. (With `httpsOptions` or
 * `forceCloseConnections`, which the platform does not use, Nest's own server is kept.)
 */
export class PlatformExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    this.httpServer = http.createServer(messageClassesOf(app), app);
  }
}
