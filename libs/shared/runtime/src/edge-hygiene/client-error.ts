import { STATUS_CODES } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { platformHttpLogger } from '@platform/observability';

/** The body of an answer to a request Node's HTTP parser refused, in a service's error shape. */
export type ClientErrorBody = (status: number, code: string, message: string) => unknown;

/** `{error, message}`: the coded error shape the services share where nothing closer fits. */
export const defaultClientErrorBody: ClientErrorBody = (_status, code, message) => ({ error: code, message });

interface ParserError extends Error {
  code?: string;
}

/** Node's own status for a parser failure (as its default handler answers), with a code and message. */
function refusalFor(err: ParserError): { status: number; code: string; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'request_header_fields_too_large', message: 'The request headers are larger than the server accepts.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'payload_too_large', message: 'The request body framing is larger than the server accepts.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request was not received in time.' };
    default:
      // NUL or another control byte in a header, a malformed request line, bad chunk framing.
      return { status: 400, code: 'bad_request', message: 'The request is not well-formed HTTP (request line, headers or framing).' };
  }
}

/**
 * Answers what Node's HTTP parser refuses before any app code sees the request (NUL in a header,
 * a malformed request line) with a JSON body in the service's shape instead of Node's empty 400,
 * then closes the connection: after a parse error the rest of the stream cannot be framed. A
 * connection the client reset, or one on which the answer to an earlier request is still pending,
 * is only closed (an answer there would be read as that request's); a keep-alive connection whose
 * earlier answers are complete gets its 400. Each refusal gets an access-log line.
 */
export function answerClientErrors(server: Server, body: ClientErrorBody = defaultClientErrorBody): void {
  server.on('clientError', (err: ParserError, socket: Duplex & { _httpMessage?: ServerResponse | null }) => {
    // Node keeps the response being answered on the connection as _httpMessage until it is done.
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage) {
      socket.destroy();
      return;
    }
    const { status, code, message } = refusalFor(err);
    const json = JSON.stringify(body(status, code, message));
    platformHttpLogger()?.info({ res: { statusCode: status }, parser_error: err.code ?? err.message }, 'request refused');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
    // A client that keeps sending after the answer must not hold the socket open.
    socket.once('finish', () => socket.destroy());
  });
}
