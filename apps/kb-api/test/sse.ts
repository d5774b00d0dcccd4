/** One server-sent event as the chat stream writes it. */
export interface SseEvent {
  event: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Reads a whole `text/event-stream` body into its events, in order. */
export function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))!.slice('event: '.length);
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice('data: '.length)).join('\n');
      return { event, data: JSON.parse(data) };
    });
}

export async function streamChat(url: string, token: string | null, body: unknown) {
  const r = await fetch(`${url}/api/kb/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, events: r.headers.get('content-type')?.startsWith('text/event-stream') ? parseSse(text) : [] };
}
