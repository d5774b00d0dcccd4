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

/** The client sent its body too slowly on average: it used up its whole-body allowance. */
export class BodyTooSlowError extends BodyStalledError {
  constructor(
    readonly received: number,
    waitedMs: number,
  ) {
    super(waitedMs);
    this.message = `the request body was not received in time (${received} bytes in ${Math.round(waitedMs)} ms)`;
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
  /** Longest pause between body chunks while the gateway is waiting for more. */
  idleMs: number;
  /**
   * The whole body's allowance: the time spent waiting for the client may not exceed `deadlineMs`
   * plus what the bytes received earn at `minRate`, so a body trickled a byte at a time (each
   * pause under `idleMs`) still ends in 408.
   */
  deadlineMs: number;
  /** Bytes per second: each byte received adds 1000 / minRate ms to the allowance. */
  minRate: number;
  /** Called when the body is first asked for: where a `100 Continue` is sent. */
  onStart?: () => void;
  /** Called once what `prefetch` read ahead has all been handed on by `chunks` (the gateway no longer holds it). */
  onReadAheadSent?: () => void;
}

/**
 * The client's request body. The first bytes are read ahead into the gateway (`prefetch`) before an
 * upstream connection is taken, so a body up to that size is complete before it costs one; the rest
 * is read only as fast as the upstream request consumes it (no buffering beyond the socket's). Time
 * counts only while the gateway waits for the client, never while the upstream is slow to take the
 * data, and it is bounded twice: no pause longer than `idleMs`, and no more waiting in all than
 * `deadlineMs` plus what the bytes received earn at `minRate`. So a client that stalls or trickles
 * cannot hold a pooled upstream connection for longer than those allow.
 */
export class ClientBody {
  private received = 0;
  private complete = false;
  private started = false;
  /** Time spent waiting for the client's bytes so far. */
  private waitedMs = 0;
  /** Bytes read ahead by `prefetch`, not yet handed to the upstream request. */
  private readonly held: Buffer[] = [];
  private heldBytes = 0;

  constructor(
    private readonly req: IncomingMessage,
    private readonly options: ClientBodyOptions,
  ) {}

  /** Whether the whole body was read from the client (a connection with unread body bytes cannot simply be reused). */
  get ended(): boolean {
    return this.complete || this.req.readableEnded;
  }

  /**
   * Reads ahead, before the caller takes an upstream connection, until more than `bytes` are held
   * or the body ended (true). A client that declares a body and sends it slowly or not at all holds
   * no pooled connection meanwhile, and an upstream that closes its idle keep-alive socket meanwhile
   * (it has seen no request yet) cannot turn the client's stall into a 502. Rejects with
   * BodyStalledError / BodyTooSlowError when the client runs out of time, BodyTooLargeError past the
   * limit.
   */
  async prefetch(bytes: number): Promise<boolean> {
    this.start();
    while (!this.complete && this.heldBytes < bytes) {
      const chunk = await this.pull();
      if (chunk === null) break;
      this.held.push(chunk);
      this.heldBytes += chunk.length;
    }
    return this.complete;
  }

  async *chunks(): AsyncGenerator<Buffer> {
    this.start();
    for (;;) {
      const held = this.held.shift();
      if (held) {
        this.heldBytes -= held.length;
        yield held;
        continue;
      }
      this.options.onReadAheadSent?.();
      const chunk = await this.pull();
      if (chunk === null) return;
      yield chunk;
    }
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.options.onStart?.();
  }

  private async pull(): Promise<Buffer | null> {
    if (this.complete) return null;
    const chunk = await this.next();
    if (chunk === null) {
      this.complete = true;
      return null;
    }
    this.received += chunk.length;
    if (this.received > this.options.limit) throw new BodyTooLargeError(this.options.limit);
    return chunk;
  }

  /** What is left of the whole-body allowance, in ms. */
  private allowanceMs(): number {
    return this.options.deadlineMs + (this.received * 1000) / this.options.minRate - this.waitedMs;
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
    const allowance = this.allowanceMs();
    if (allowance <= 0) return Promise.reject(new BodyTooSlowError(this.received, this.waitedMs));
    const waitStarted = performance.now();
    return new Promise((resolve, reject) => {
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        req.off('readable', onReadable);
        req.off('end', onEnd);
        req.off('error', onGone);
        req.off('close', onGone);
        this.waitedMs += performance.now() - waitStarted;
        fn();
      };
      const onReadable = () => {
        const chunk = req.read() as Buffer | null;
        if (chunk !== null) settle(() => resolve(chunk));
      };
      const onEnd = () => settle(() => resolve(null));
      const onGone = () => settle(() => (req.readableEnded ? resolve(null) : reject(new ClientAbortedError())));
      const onTimeout = () =>
        settle(() => reject(allowance < this.options.idleMs ? new BodyTooSlowError(this.received, this.waitedMs) : new BodyStalledError(this.options.idleMs)));
      const timer = setTimeout(onTimeout, Math.min(this.options.idleMs, allowance));
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
