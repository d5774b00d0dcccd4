import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedMessagesCall {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    messages: Array<{ role: string; content: string }>;
  };
}

export interface ScriptedMessagesReply {
  status?: number;
  /** The reply's text block; absent gives `{}`. */
  content?: string;
  /** Replaces the whole reply body, to script malformed answers. */
  rawBody?: string;
  input_tokens?: number;
  output_tokens?: number;
  delayMs?: number;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the Messages shape (`POST /v1/messages`), for tests:
 * it answers with the next scripted reply and records each call with its headers.
 */
export class FakeAnthropicServer {
  readonly calls: RecordedMessagesCall[] = [];
  private readonly replies: ScriptedMessagesReply[] = [];
  private server?: Server;
  url = '';

  reply(...r: ScriptedMessagesReply[]): this {
    this.replies.push(...r);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      this.calls.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
      const next = this.replies.shift() ?? {};
      // Unref'd so a reply the client already gave up on does not keep the test process alive.
      if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs).unref());
      if (res.destroyed) return;
      if (next.status && next.status >= 400) {
        res.writeHead(next.status, { 'content-type': 'application/json' });
        return void res.end('{"type":"error","error":{"type":"scripted","message":"scripted"}}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        next.rawBody ??
          JSON.stringify({
            id: 'msg_test',
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: next.content ?? '{}' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: next.input_tokens ?? 0, output_tokens: next.output_tokens ?? 0 },
          }),
      );
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((r) => {
      if (!this.server) return r();
      this.server.closeAllConnections();
      this.server.close(() => r());
    });
  }
}
