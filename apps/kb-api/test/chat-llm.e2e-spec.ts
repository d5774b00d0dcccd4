import { startWorker, WorkerHandle } from '@platform/runtime';
import { FakeOpenAiServer, RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const DOC = `# Backups

Backups run every night at two o'clock and are kept for thirty days in the secondary region.
`;

describe('kb-api chat with an OpenAI-compatible model', () => {
  const llm = new FakeOpenAiServer();
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let token: string;
  const ask = (question: string) => new KbClient(svc.url).call('POST', '/api/kb/chat', { token, body: { question } });

  beforeAll(async () => {
    await llm.start();
    ({ svc, db, stop } = await startKb({ KB_CHAT_PROVIDER: 'openai', KB_LLM_BASE_URL: llm.url, KB_LLM_MODEL: 'test-model', KB_LLM_API_KEY: 'sk-test', KB_LLM_TIMEOUT_MS: '2000' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(db, { email: 'llm@example.com' });
    const c = new KbClient(svc.url);
    token = (await c.call('POST', '/api/auth/token', { body: { email: 'llm@example.com', password: 'correct horse battery staple' } })).body.token;
    await c.call('POST', '/api/kb/ingest', { token, body: { documents: [{ source_path: 'ops/backups.md', content: DOC }] } });
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
    await llm.stop();
  });

  it('sends the grounded sources to the model and returns its cited answer', async () => {
    llm.reply({ content: JSON.stringify({ answer: 'Backups run nightly at 02:00 and are kept for thirty days [1].' }), tokens: 120 });
    const r = await ask('How long are backups kept?');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ answer: 'Backups run nightly at 02:00 and are kept for thirty days [1].', refusal_reason: null, meta: { provider: 'openai', model: 'test-model' } });
    expect(r.body.citations[0]).toMatchObject({ source_path: 'ops/backups.md' });
    const call = llm.calls[llm.calls.length - 1];
    expect(call.authorization).toBe('Bearer sk-test');
    expect(call.body.model).toBe('test-model');
    expect(call.body.messages.map((m) => m.content).join('\n')).toContain('thirty days in the secondary region');
  });

  it("maps the model's exact refusal sentinel to llm_self_refusal with the same shape", async () => {
    llm.reply({ content: JSON.stringify({ answer: '__NO_GROUNDED_ANSWER__' }) });
    const r = await ask('Where are backups kept?');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ refusal_reason: 'llm_self_refusal', confidence: 0, citations: [], meta: { provider: 'openai', model: 'test-model', refused_early: false } });
  });

  it('answers a clear 5xx when the model fails, and never calls it without grounding', async () => {
    llm.reply({ status: 500 });
    const failed = await ask('How long are backups kept?');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: 'llm_unavailable' });
    const calls = llm.calls.length;
    const off = await ask('Which football team won the league?');
    expect(off.body.refusal_reason).toBe('no_relevant_context');
    expect(llm.calls.length).toBe(calls);
  });
});
