import { startWorker, WorkerHandle } from '@platform/runtime';
import { FakeAnthropicServer, RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { streamChat } from './sse';

const DOC = `# Retention

Audit logs are retained for seven years in cold storage and can be restored within two days.
`;
// Retrieval weighs terms by how rare they are in the tenant, so the corpus holds more than one document.
const OTHERS = [
  { source_path: 'ops/oncall.md', content: '# On-call\n\nThe on-call engineer answers pages within fifteen minutes and hands over every Monday.\n' },
  { source_path: 'ops/deploys.md', content: '# Deploys\n\nDeploys go out on weekdays after the test suite and a staging check pass.\n' },
];

describe('kb-api chat with an Anthropic Messages model', () => {
  const llm = new FakeAnthropicServer();
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let token: string;
  const ask = (question: string) => new KbClient(svc.url).call('POST', '/api/kb/chat', { token, body: { question } });

  beforeAll(async () => {
    await llm.start();
    ({ svc, db, stop } = await startKb({ KB_CHAT_PROVIDER: 'anthropic', KB_LLM_BASE_URL: llm.url, KB_LLM_MODEL: 'claude-test', KB_LLM_API_KEY: 'ak-test', KB_LLM_TIMEOUT_MS: '2000' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(db, { email: 'anthropic@example.com' });
    const c = new KbClient(svc.url);
    token = (await c.call('POST', '/api/auth/token', { body: { email: 'anthropic@example.com', password: 'correct horse battery staple' } })).body.token;
    await c.call('POST', '/api/kb/ingest', { token, body: { documents: [{ source_path: 'ops/retention.md', content: DOC }, ...OTHERS] } });
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
    await llm.stop();
  });

  it('sends the grounded sources as a Messages call and returns the cited answer, logged as anthropic', async () => {
    llm.reply({ content: JSON.stringify({ answer: 'Audit logs are kept for seven years [1].' }), input_tokens: 90, output_tokens: 12 });
    const r = await ask('How long are audit logs retained?');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ answer: 'Audit logs are kept for seven years [1].', refusal_reason: null, meta: { provider: 'anthropic', model: 'claude-test' } });
    expect(r.body.citations[0]).toMatchObject({ source_path: 'ops/retention.md' });
    const call = llm.calls[llm.calls.length - 1];
    expect(call.path).toBe('/v1/messages');
    expect(call.headers['x-api-key']).toBe('ak-test');
    expect(call.headers['anthropic-version']).toBeTruthy();
    expect(call.body).toMatchObject({ model: 'claude-test', max_tokens: 1024 });
    expect(call.body.system).toContain('kb.chat');
    expect(call.body.messages[0].content).toContain('seven years in cold storage');
    const logged = await db.query(`SELECT provider, model FROM kb_chat_logs ORDER BY id DESC LIMIT 1`);
    expect(logged[0]).toEqual({ provider: 'anthropic', model: 'claude-test' });
  });

  it("maps the model's refusal sentinel to llm_self_refusal", async () => {
    llm.reply({ content: JSON.stringify({ answer: '__NO_GROUNDED_ANSWER__' }) });
    const r = await ask('Where are audit logs retained?');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ refusal_reason: 'llm_self_refusal', confidence: 0, citations: [], meta: { provider: 'anthropic', model: 'claude-test' } });
  });

  it('answers 502 llm_unavailable when the model fails', async () => {
    llm.reply({ status: 529 });
    const failed = await ask('How long are audit logs retained?');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: 'llm_unavailable' });
  });

  it('streams a model answer as meta, one delta and done, and a model failure after meta as an error event', async () => {
    const before = (await db.query(`SELECT count(*)::int AS n FROM kb_chat_logs`))[0].n;
    llm.reply({ content: JSON.stringify({ answer: 'Seven years [1]. Restores take two days [1].' }) });
    const ok = await streamChat(svc.url, token, { question: 'How long are audit logs retained?' });
    expect(ok.events.map((e) => e.event)).toEqual(['meta', 'delta', 'done']);
    expect(ok.events[0].data).toMatchObject({ provider: 'anthropic', citations: [expect.objectContaining({ source_path: 'ops/retention.md' })] });
    expect(ok.events[1].data).toEqual({ text: 'Seven years [1]. Restores take two days [1].' });
    expect(ok.events[2].data).toMatchObject({ answer: 'Seven years [1]. Restores take two days [1].', refusal_reason: null, meta: { provider: 'anthropic' } });
    expect((await db.query(`SELECT count(*)::int AS n FROM kb_chat_logs`))[0].n).toBe(before + 1);

    llm.reply({ status: 529 });
    const failed = await streamChat(svc.url, token, { question: 'How long are audit logs retained?' });
    expect(failed.status).toBe(200);
    expect(failed.events.map((e) => e.event)).toEqual(['meta', 'error']);
    expect(failed.events[1].data).toEqual({ error: 'llm_unavailable', message: 'The answering model is unavailable: LLM provider answered HTTP 529.' });
  });
});
