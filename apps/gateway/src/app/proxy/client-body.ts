import type { IncomingMessage } from 'node:http';

/** The body grew past the route group's limit (a chunked body has no declared length to check up front). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

/** The client stopped sending its body while the upstream was waiting for it. */
export class BodyStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`no request body data for ${idleMs} ms`);
  }
}

/** The client closed the connection before its body was complete. */
export class ClientAbortedError extends Error {
  constructor() {
    super('the client closed the connection mid-body');
  }
}

export interface ClientBodyOptions {
  /** Bytes allowed for this route group. */
  limit: number;
  /** Longest pause between body chunks while the upstream is waiting for more. */
  idleMs: number;
  /** Called when the body is first asked for: where a `100 Continue` is sent. */
  onStart?: () => void;
}

/**
 * The client's request body, read only as fast as the upstream request consumes it (no
 * buffering beyond the socket's). Idle time counts only while the upstream waits for data, so a
 * slow upstream never makes a client look slow, and a client that stalls cannot hold a pooled
 * upstream connection for longer than `idleMs`.
 */
export class ClientBody {
  private received = 0;
  private complete = false;
  private started = false;
  /** The first chunk (null: an empty body), read by `firstBytes` before an upstream connection is taken. */
  private first: { chunk: Buffer | null } | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly options: ClientBodyOptions,
  ) {}

  /** Whether the whole body was read (a connection with unread body bytes cannot simply be reused). */
  get ended(): boolean {
    return this.complete || this.req.readableEnded;
  }

  /**
   * Waits for the body's first bytes (or its end) before the caller takes an upstream connection:
   * a client that declares a body and then sends nothing holds no pooled connection, and an
   * upstream that closes its idle keep-alive socket meanwhile (it has seen no request yet) cannot
   * turn the client's stall into a 502. Rejects with BodyStalledError after `idleMs`.
   */
  async firstBytes(): Promise<void> {
    this.start();
    this.first = { chunk: await this.next() };
  }

  async *chunks(): AsyncGenerator<Buffer> {
    this.start();
    for (;;) {
      const chunk = this.first ? this.first.chunk : await this.next();
      this.first = undefined;
      if (chunk === null) {
        this.complete = true;
        return;
      }
      this.received += chunk.length;
      if (this.received > this.options.limit) throw new BodyTooLargeError(this.options.limit);
      yield chunk;
    }
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.options.onStart?.();
  }

  /**
   * After an early answer (413 mid-body, say): reads and drops what the client still sends, so it
   * receives that answer instead of a reset connection, and the connection stays usable. Beyond
   * `maxBytes` the connection is cut instead.
   */
  discardRest(maxBytes: number): void {
    const req = this.req;
    if (this.ended || req.destroyed) return;
    let dropped = 0;
    req.on('data', (c: Buffer) => {
      dropped += c.length;
      if (dropped > maxBytes) req.socket.destroy();
    });
    req.resume();
  }

  private next(): Promise<Buffer | null> {
    const req = this.req;
    const ready = req.read() as Buffer | null;
    if (ready !== null) return Promise.resolve(ready);
    if (req.readableEnded) return Promise.resolve(null);
    if (req.destroyed) return Promise.reject(new ClientAbortedError());
    return new Promise((resolve, reject) => {
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        req.off('readable', onReadable);
        req.off('end', onEnd);
        req.off('error', onGone);
        req.off('close', onGone);
        fn();
      };
      const onReadable = () => {
        const chunk = req.read() as Buffer | null;
        if (chunk !== null) settle(() => resolve(chunk));
      };
      const onEnd = () => settle(() => resolve(null));
      const onGone = () => settle(() => (req.readableEnded ? resolve(null) : reject(new ClientAbortedError())));
      const timer = setTimeout(() => settle(() => reject(new BodyStalledError(this.options.idleMs))), this.options.idleMs);
      req.on('readable', onReadable);
      req.on('end', onEnd);
      req.on('error', onGone);
      req.on('close', onGone);
    });
  }
}

/**
 * Reads and drops a whole request body before the gateway answers it without the upstream (a
 * declared length over the limit). Answering first would be allowed, but a server that answers and
 * then closes (as it must when the client asked for `Connection: close`) while body bytes are still
 * arriving makes the kernel reset the connection, and the client may never read the answer
 * (RFC 9112 §9.6). Resolves true once the body ended; false when the client stalled for `idleMs`
 * or went away, and then the connection is cut.
 */
export function drainBody(req: IncomingMessage, idleMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let timer = setTimeout(() => stop(false), idleMs);
    const onData = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop(false), idleMs);
    };
    const onEnd = () => stop(true);
    const onGone = () => stop(req.readableEnded);
    function stop(ended: boolean) {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onGone);
      req.off('error', onGone);
      if (!ended) req.socket.destroy();
      resolve(ended);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onGone);
    req.on('error', onGone);
    req.resume();
  });
}
