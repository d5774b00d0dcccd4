import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A deterministic stand-in for an embedding model: a hashed bag of words, where the words of one
 * concept (`concepts`: word → concept) land in the same dimension. Texts sharing concepts are close
 * under cosine even when they share no word, which is what a real model gives retrieval.
 */
export function bagOfConceptsEmbedding(text: string, dims: number, concepts: Record<string, string> = {}): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? []) {
    if (word.length < 3) continue;
    const key = concepts[word] ?? word;
    v[createHash('sha256').update(key).digest().readUInt32BE(0) % dims] += 1;
  }
  const norm = Math.hypot(...v);
  return norm > 0 ? v.map((x) => x / norm) : v.map((_, i) => (i === 0 ? 1 : 0));
}

export interface EmbeddingsCall {
  path: string;
  authorization?: string;
  body: { model: string; input: string[]; dimensions?: number };
}

/**
 * A real HTTP server on 127.0.0.1 speaking the `/v1/embeddings` shape, for tests: it embeds with
 * bagOfConceptsEmbedding, answers in reverse index order (clients must sort), records the calls, and
 * can be told to fail the next calls with a status or to hang past the client's timeout.
 */
export class FakeEmbeddingsServer {
  readonly calls: EmbeddingsCall[] = [];
  private readonly failures: Array<number | 'hang'> = [];
  private server?: Server;
  url = '';

  constructor(
    private readonly dims = 256,
    private readonly concepts: Record<string, string> = {},
  ) {}

  /** The next calls answer this HTTP status (or never answer), in order. */
  fail(...outcomes: Array<number | 'hang'>): this {
    this.failures.push(...outcomes);
    return this;
  }

  embedding(text: string): number[] {
    return bagOfConceptsEmbedding(text, this.dims, this.concepts);
  }

  async start(): Promise<this> {
    this.server = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as EmbeddingsCall['body'];
      this.calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const failure = this.failures.shift();
      if (failure === 'hang') return;
      if (failure) return void res.writeHead(failure).end('{"error":"scripted"}');
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: this.embedding(text) })).reverse();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } }));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  stop(): Promise<void> {
    if (!this.server) return Promise.resolve();
    this.server.closeAllConnections();
    return new Promise((r) => this.server!.close(() => r()));
  }
}
