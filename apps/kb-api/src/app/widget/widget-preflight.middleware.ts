import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Answers CORS preflights of /api/widget/*. A preflight carries no widget key, so it cannot be
 * judged per key: it only says which headers and methods the API takes. Whether the page may read
 * the answer is decided on the real request, which echoes Access-Control-Allow-Origin only for an
 * origin the key allows.
 */
@Injectable()
export class WidgetPreflightMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const origin = req.headers.origin;
    if (req.method !== 'OPTIONS' || typeof origin !== 'string') {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'X-Widget-Key, Authorization, Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
    res.setHeader('Vary', 'Origin, Access-Control-Request-Headers');
    res.status(204).end();
  }
}
