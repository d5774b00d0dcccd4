import type { ServerResponse } from 'node:http';

/**
 * Answers with a JSON body in one write: status line, headers already set on `res` and the body
 * go out together. Express's res.json would also hash the body for an ETag and check request
 * freshness, which a POST answer never uses; on a hot path that costs as much as the handler.
 */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
