import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';

/** The gateway's own error answers: RFC 9457 problem details carrying the request id. */
export function problemBody(status: number, code: string, detail: string, requestId: string): string {
  return JSON.stringify({ type: `https://errors.platform.local/${code}`, title: code.replace(/_/g, ' '), status, detail, code, request_id: requestId });
}

/**
 * Answers with a problem document, or cuts the connection when an answer has already begun (the
 * client must not mistake a truncated upstream answer for a complete one).
 */
export function sendProblem(
  res: ServerResponse,
  status: number,
  code: string,
  detail: string,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (res.destroyed) return;
  const body = problemBody(status, code, detail, requestId);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/problem+json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
  });
  res.end(body);
}

/**
 * For errors Node raises before there is a request object (unparsable request, header section too
 * large or too slow), or requests it hands over without a response (CONNECT): a complete HTTP/1.1
 * answer written to the socket, with `headers` (the edge's security headers), then the connection closed.
 */
export function writeRawProblem(socket: Socket, status: number, code: string, detail: string, headers: Record<string, string> = {}): void {
  const requestId = randomUUID();
  const body = problemBody(status, code, detail, requestId);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/problem+json',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    '',
  ].join('\r\n');
  socket.end(head + body);
}
