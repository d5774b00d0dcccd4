import { RunningService } from '@platform/testing';
import { callerWith, Caller } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

/** The Prometheus series the platform's alerts (k8s/alerts) watch: ingest backlog and chat refusals. */
describe('kb-api /metrics', () => {
  let svc: RunningService;
  let stop: () => Promise<void>;
  let caller: Caller;

  const series = async (name: string, labels: string) => {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  beforeAll(async () => {
    const kb = await startKb();
    ({ svc, stop } = kb);
    caller = await callerWith(svc.url, kb.db, { email: 'metrics@example.com', roles: ['viewer'] });
  });
  afterAll(() => stop());

  it('counts ingest jobs waiting for a worker (none runs here)', async () => {
    expect(await series('kb_ingest_jobs', 'state="waiting"')).toBe(0);
    const r = await new KbClient(svc.url).call('POST', '/api/kb/ingest', {
      token: caller.token,
      body: { documents: [{ source_path: 'notes/a.md', content: '# A\n\nSomething worth indexing.' }, { source_path: 'notes/b.md', content: '# B\n\nAnother.' }] },
    });
    expect(r.status).toBe(202);
    expect(await series('kb_ingest_jobs', 'state="waiting"')).toBe(2);
  });

  it('counts chat turns by outcome and refusal reason', async () => {
    const refused = await new KbClient(svc.url).call('POST', '/api/kb/chat', { token: caller.token, body: { question: 'What is the capital of the moon colony?' } });
    expect(refused.body.refusal_reason).toBe('no_relevant_context');
    expect(await series('kb_chat_answers_total', 'refusal_reason="no_relevant_context"')).toBe(1);
    expect(await series('kb_chat_answers_total', 'outcome="answered"')).toBe(0);
  });
});
