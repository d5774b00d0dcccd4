import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  path: string;
  authorization?: string;
  body: { model: string; max_tokens: number; messages: Array<{ role: string; content: string }> };
}

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions shape, for tests: it answers
 * with the next scripted reply (content and token usage, or a status code) and records the calls.
 */
export class FakeOpenAiServer {
  readonly calls: RecordedCall[] = [];
  private readonly replies: Array<{ status?: number; content?: string; tokens?: number }> = [];
  private server?: Server;
  url = '';

  reply(r: { status?: number; content?: string; tokens?: number }): this {
    this.replies.push(r);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      this.calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString()) });
      const next = this.replies.shift() ?? { content: '{}' };
      if (next.status && next.status >= 400) return void res.writeHead(next.status).end('{"error":"scripted"}');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: next.content ?? '{}' } }], usage: { total_tokens: next.tokens ?? 0 } }));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
