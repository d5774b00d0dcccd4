import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Why the gateway cut a client connection: its client took no output for too long, or pipelined too many requests. */
export type ConnectionCloseReason = 'send_timeout' | 'pipeline_overflow';

export interface ConnectionGuardOptions {
  /** Longest time a connection may hold output its client does not take (no byte accepted); then it is cut. */
  sendTimeoutMs: number;
  /** Pipelined requests that may wait behind the one being answered; one more cuts the connection. */
  maxWaiting: number;
  onClose?: (reason: ConnectionCloseReason) => void;
}

interface Connection {
  /** The answer being given on the connection, if any. */
  current: ServerResponse | undefined;
  /** Pipelined requests parsed but not started yet, in order. */
  readonly waiting: Array<() => void>;
  /** Bytes the kernel has taken from the connection so far, at the last look. */
  flushed: number;
  /** When the connection last made progress (or had nothing to send). */
  progressAt: number;
}

/** Bytes of the socket's output the kernel has accepted: dispatched or queued, minus what is still waiting for a write to complete. */
function flushedBytes(socket: Socket): number {
  return (socket.bytesWritten ?? 0) - socket.writableLength;
}

/**
 * What one client connection may cost the gateway, whatever the requests on it are:
 *
 * - One request at a time. Node parses every request a client pipelines in one read and runs the
 *   handler of each; answers after the first are then queued in memory, and (the client not
 *   reading) their upstream requests pause on backpressure, each holding an upstream connection
 *   slot, and Node never tells those queued answers that the client left. Here a request starts
 *   only once the answer before it on the connection is finished; at most `maxWaiting` may wait,
 *   and one more cuts the connection (a client that pipelines that far is not waiting for answers).
 * - No answer stuck on a client that does not read: while the connection has output the kernel
 *   will not take and none of it is taken for `sendTimeoutMs`, the connection is cut, which cancels
 *   the request's upstream side and gives its slot back. Progress is what the kernel accepts, and it
 *   frees send-buffer room in steps (up to half its buffer), so a reader keeps its connection while
 *   it drains such a step within the timeout; one slower than that on a large answer is cut while
 *   still reading. An answer waiting for its upstream has no output and is not timed here.
 * - Waiting requests of a connection that closes are dropped, never started.
 */
export class ConnectionGuard {
  private readonly connections = new WeakMap<Socket, Connection>();
  /** Connections giving an answer: the ones the send timeout watches. */
  private readonly answering = new Set<Socket>();
  private readonly tickMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConnectionGuardOptions) {
    this.tickMs = Math.max(10, Math.min(1000, Math.floor(options.sendTimeoutMs / 4)));
  }

  /** Runs `serve` for this request now when the connection is idle, else once the answers before it are finished. */
  admit(req: IncomingMessage, res: ServerResponse, serve: () => void): void {
    const socket = req.socket;
    // Parsed from bytes that arrived with others after the connection was cut: nobody to answer.
    if (socket.destroyed) return;
    let conn = this.connections.get(socket);
    if (!conn) {
      const created: Connection = { current: undefined, waiting: [], flushed: 0, progressAt: 0 };
      this.connections.set(socket, created);
      socket.once('close', () => {
        created.waiting.length = 0;
        created.current = undefined;
        this.answering.delete(socket);
      });
      conn = created;
    }
    if (conn.current === undefined) {
      this.start(socket, conn, res, serve);
      return;
    }
    if (conn.waiting.length >= this.options.maxWaiting) {
      this.cut(socket, 'pipeline_overflow');
      return;
    }
    const c = conn;
    c.waiting.push(() => this.start(socket, c, res, serve));
  }

  /** The answer currently being given on the connection, if any. */
  current(socket: Socket): ServerResponse | undefined {
    return this.connections.get(socket)?.current;
  }

  private start(socket: Socket, conn: Connection, res: ServerResponse, serve: () => void): void {
    conn.current = res;
    conn.flushed = flushedBytes(socket);
    conn.progressAt = performance.now();
    this.answering.add(socket);
    this.watch();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      if (conn.current !== res) return;
      conn.current = undefined;
      this.answering.delete(socket);
      const next = conn.waiting.shift();
      if (!next) return;
      // Node assigned the connection to the next answer as this one finished (its listener runs first);
      // a connection closing after this answer (Connection: close) has nobody left to answer.
      if (socket.destroyed || !socket.writable) conn.waiting.length = 0;
      else next();
    };
    res.once('finish', done);
    res.once('close', done);
    serve();
  }

  private cut(socket: Socket, reason: ConnectionCloseReason): void {
    this.options.onClose?.(reason);
    socket.destroy();
  }

  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), this.tickMs);
    this.timer.unref();
  }

  private sweep(): void {
    const now = performance.now();
    for (const socket of this.answering) {
      const conn = this.connections.get(socket);
      if (!conn || socket.destroyed) {
        this.answering.delete(socket);
        continue;
      }
      const flushed = flushedBytes(socket);
      if (socket.writableLength === 0 || flushed !== conn.flushed) {
        conn.flushed = flushed;
        conn.progressAt = now;
      } else if (now - conn.progressAt >= this.options.sendTimeoutMs) {
        this.answering.delete(socket);
        this.cut(socket, 'send_timeout');
      }
    }
    if (this.answering.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
