import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: a chat-completions reply, a raw body, or an error status; optionally late. */
export interface ScriptedAnswer {
  status?: number;
  content?: unknown;
  usage?: Record<string, unknown>;
  /** Sent verbatim instead of a chat-completions body. */
  rawBody?: string;
  delayMs?: number;
}

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    max_tokens: number;
    response_format?: unknown;
    messages: Array<{ role: string; content: string }>;
  };
}

/**
 * A real HTTP server on 127.0.0.1 (port chosen by the OS) speaking the chat-completions shape,
 * for tests only: it answers each call with the next scripted answer and records what it got.
 */
export class StubChatServer {
  readonly calls: ReceivedCall[] = [];
  private readonly script: ScriptedAnswer[] = [];
  private readonly server: Server;
  private readonly pending = new Set<NodeJS.Timeout>();
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.calls.push({
          path: req.url ?? '',
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        const answer = this.script.shift() ?? { content: '{}' };
        const send = () => {
          if (res.destroyed) return;
          const status = answer.status ?? 200;
          const body =
            answer.rawBody ??
            JSON.stringify({
              choices: [{ message: { role: 'assistant', content: answer.content ?? '{}' } }],
              ...(answer.usage ? { usage: answer.usage } : {}),
            });
          res.writeHead(status, { 'content-type': 'application/json' }).end(body);
        };
        if (!answer.delayMs) return send();
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          send();
        }, answer.delayMs);
        this.pending.add(timer);
      });
    });
  }

  answer(...answers: ScriptedAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
