import { PassThrough } from 'node:stream';

/** The answer in sentence-sized pieces that join back to exactly the same text. */
export function sentenceChunks(text: string): string[] {
  return text.match(/[\s\S]+?(?:[.!?]+(?:\s+|$)|$)/g)?.filter((c) => c.length > 0) ?? [];
}

/** A server-sent event stream: one `event:` and one JSON `data:` line per event. */
export class ChatEventStream {
  readonly body = new PassThrough();

  send(event: 'meta' | 'delta' | 'done' | 'error', data: unknown): void {
    if (!this.body.writableEnded) this.body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.body.writableEnded) this.body.end();
  }
}

/**
 * Whether an Accept header asks for the answer as server-sent events: it names text/event-stream
 * itself with a quality above 0 and at least that of application/json. `text/event-stream;q=0`
 * says a stream is not acceptable, `text/event-stream;q=0.5, application/json` prefers JSON, and a
 * wildcard (curl's `*\/*`) asks for nothing in particular: all three get JSON.
 */
export function asksForEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  const quality = { 'text/event-stream': -1, 'application/json': -1 };
  for (const entry of accept.split(',')) {
    const [type, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'text/event-stream' && type !== 'application/json') continue;
    const q = params.find((param) => param.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    quality[type] = Math.max(quality[type], Number.isFinite(value) ? value : 0);
  }
  return quality['text/event-stream'] > 0 && quality['text/event-stream'] >= quality['application/json'];
}
