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
