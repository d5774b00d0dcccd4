import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { AI_DISCLOSURE } from '../src/app/chat/chat.controller';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { streamChat } from './sse';

const DOCS = [
  { source_path: 'ops/backups.md', content: '# Backups\n\nBackups run every night at two o\'clock. They are kept for thirty days in the secondary region.\n' },
  { source_path: 'ops/oncall.md', content: '# On-call\n\nThe on-call engineer answers pages within fifteen minutes and hands over every Monday.\n' },
  { source_path: 'ops/deploys.md', content: '# Deploys\n\nDeploys go out on weekdays after the test suite and a staging check pass.\n' },
];

describe('kb-api chat as server-sent events (extractive provider)', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let token: string;
  const logCount = async () => (await db.query(`SELECT count(*)::int AS n FROM kb_chat_logs`))[0].n as number;

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb({ KB_CHAT_PROVIDER: 'none' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(db, { email: 'stream@example.com' });
    const c = new KbClient(svc.url);
    token = (await c.call('POST', '/api/auth/token', { body: { email: 'stream@example.com', password: 'correct horse battery staple' } })).body.token;
    await c.call('POST', '/api/kb/ingest', { token, body: { documents: DOCS } });
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n < DOCS.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
  });

  it('streams meta, sentence deltas and a done that matches the JSON answer, logging once', async () => {
    const question = 'How long are backups kept?';
    const json = await new KbClient(svc.url).call('POST', '/api/kb/chat', { token, body: { question } });
    const before = await logCount();
    const s = await streamChat(svc.url, token, { question });

    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('cache-control')).toBe('no-cache');
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    expect(s.headers.get('x-ai-disclosure')).toBe(AI_DISCLOSURE);
    const names = s.events.map((e) => e.event);
    expect(names[0]).toBe('meta');
    expect(names[names.length - 1]).toBe('done');
    expect(names.slice(1, -1).every((n) => n === 'delta')).toBe(true);

    const [meta] = s.events;
    expect(meta.data).toEqual({ citations: json.body.citations, filters: {}, provider: 'none' });
    const done = s.events[s.events.length - 1].data;
    const { meta: doneMeta, ...doneRest } = done;
    const { meta: jsonMeta, ...jsonRest } = json.body;
    expect(doneRest).toEqual(jsonRest);
    expect(Object.keys(doneMeta)).toEqual(Object.keys(jsonMeta));
    const deltas = s.events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    expect(deltas.join('')).toBe(done.answer);
    expect(deltas.length).toBeGreaterThan(1);
    for (const d of deltas.slice(0, -1)) expect(d).toMatch(/[.!?]\s+$/);
    expect(await logCount()).toBe(before + 1);
  });

  it('streams a refusal as a single done event', async () => {
    const s = await streamChat(svc.url, token, { question: 'Which football team won the league?' });
    expect(s.status).toBe(200);
    expect(s.events.map((e) => e.event)).toEqual(['done']);
    expect(s.events[0].data).toMatchObject({ refusal_reason: 'no_relevant_context', citations: [], confidence: 0 });
  });

  it('answers JSON when the Accept header refuses a stream (q=0) or names none', async () => {
    for (const accept of ['text/event-stream;q=0, application/json', '*/*']) {
      const r = await fetch(`${svc.url}/api/kb/chat`, { method: 'POST', headers: { accept, 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ question: 'How long are backups kept?' }) });
      expect([accept, r.status, r.headers.get('content-type')]).toEqual([accept, 200, expect.stringMatching(/^application\/json/)]);
      expect(await r.json()).toMatchObject({ answer: expect.any(String) });
    }
  });

  it('answers validation and authentication failures as JSON before any stream', async () => {
    const invalid = await streamChat(svc.url, token, { question: 'x', filters: { date_from: '2025-02-01', date_to: '2025-01-01' } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(invalid.text)).toMatchObject({ errors: { 'filters.date_to': expect.any(Array) } });

    const anonymous = await streamChat(svc.url, null, { question: 'How long are backups kept?' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
