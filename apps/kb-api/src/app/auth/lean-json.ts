import type { Request, Response } from 'express';

/**
 * A 200 JSON answer with the headers Express's `res.json` gives it (Content-Type with charset,
 * Content-Length, the app's ETag, 304 for a fresh conditional GET), without its generic
 * content-type parsing and header bookkeeping, which cost a noticeable share of a lean request.
 * Apps that customise JSON output (replacer, spaces, escaping) get Express's own `res.json`.
 */
export function sendJson(req: Request, res: Response, value: unknown): void {
  const app = req.app;
  if (
    app.get('json replacer') !== undefined ||
    app.get('json spaces') !== undefined ||
    app.get('json escape')
  ) {
    res.status(200).json(value);
    return;
  }
  const chunk = Buffer.from(JSON.stringify(value), 'utf8');
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', chunk.length);
  const etagOf = app.get('etag fn') as ((body: Buffer) => string | undefined) | undefined;
  if (typeof etagOf === 'function' && !res.getHeader('ETag')) {
    const tag = etagOf(chunk);
    if (tag) res.setHeader('ETag', tag);
  }
  if (req.fresh) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  res.end(chunk);
}
