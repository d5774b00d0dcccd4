import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { streamChat } from './sse';
import { ingestAndWait, widgetCall } from './widget-support';

const SITE = 'https://shop.example.com';

/** A document whose text carries raw HTML and e-mail addresses, in its title, headings and body. */
const HOSTILE = `# Refund desk <img src=x onerror=alert(1)> contact

## Refunds <script>alert('t')</script>

Refunds are paid within fourteen days <script>steal()</script> of the return. Write to refunds.team@example.org
for a refund <img src=x onerror=alert(2)> and copy audit.lead@example.org on every refund request.
`;

/** What must not appear in any field an answer returns. */
function expectClean(value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  expect(text).not.toMatch(/<script/i);
  expect(text).not.toMatch(/<img/i);
  expect(text).not.toContain('refunds.team@example.org');
  expect(text).not.toContain('audit.lead@example.org');
}

describe('kb-api output guardrails cover every returned field', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let owner: Caller;
  const api = () => new KbClient(svc.url);

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb({ KB_CHAT_PROVIDER: 'none' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    owner = await callerWith(svc.url, db, { email: 'owner@example.com', roles: ['super-admin'] });
    await ingestAndWait(svc.url, db, owner.token, 'shop', [{ source_path: 'desk/refunds.md', content: HOSTILE }]);
  }, 90_000);

  afterAll(async () => {
    await worker?.close();
    await stop?.();
  });

  const question = 'How are refunds paid after the return?';

  it('chat: answer, citation titles, headings and snippets, and runner-ups', async () => {
    const r = await api().call('POST', '/api/kb/chat', { token: owner.token, body: { question, project_key: 'shop' } });
    expect(r.status).toBe(200);
    expect(r.body.refusal_reason).toBeNull();
    expect(r.body.citations.length).toBeGreaterThan(0);
    expect(r.body.citations[0].chunks[0].snippet).toContain('fourteen days');
    expect(r.body.meta.output_guardrails.pii_redaction).toBeGreaterThan(0);
    expectClean(r.body);
  });

  it('ranked retrieval: titles and snippets', async () => {
    const r = await api().call('POST', '/api/kb/retrieve', { token: owner.token, body: { query: question, filters: { project_keys: ['shop'] } } });
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.map((c: { snippet: string }) => c.snippet).join(' ')).toContain('fourteen days');
    expectClean(r.body);
  });

  it('streaming chat: meta, deltas and done', async () => {
    const r = await streamChat(svc.url, owner.token, { question, project_key: 'shop' });
    expect(r.status).toBe(200);
    expect(r.events.map((e) => e.event)).toContain('meta');
    expectClean(r.text);
  });

  it('conversations: the reply and the stored messages', async () => {
    const conversation = await api().call('POST', '/api/conversations', { token: owner.token, body: { project_key: 'shop' } });
    const id = conversation.body.id ?? conversation.body.data?.id;
    const reply = await api().call('POST', `/api/conversations/${id}/messages`, { token: owner.token, body: { content: question } });
    expect(reply.status).toBeLessThan(300);
    expectClean(reply.body);
    const messages = await api().call('GET', `/api/conversations/${id}/messages`, { token: owner.token });
    expect(JSON.stringify(messages.body)).toContain('fourteen days');
    expectClean(messages.body);
  });

  it('widget: the answer and the search tool result', async () => {
    const created = await api().call('POST', '/api/admin/widget-keys', { token: owner.token, body: { label: 'Shop', project_key: 'shop', allowed_origins: [SITE] } });
    expect(created.status).toBe(201);
    const browser = (path: string, body: unknown) => widgetCall(svc.url, 'POST', path, { key: created.body.public_key, origin: SITE, body, ip: '10.77.0.1' });
    const started = await browser('/api/widget/sessions/start', { snapshot: { title: 'Checkout' }, message: question });
    expect(started.status).toBe(200);
    expect(started.body.type).toBe('message');
    expect(started.body.citations.length).toBeGreaterThan(0);
    expectClean(started.body);
    const tool = await browser(`/api/widget/sessions/${started.body.session.id}/exec-tool`, { tool: 'kb_search', args: { query: 'refund return' } });
    expect(tool.status).toBe(200);
    expect(tool.body.result.results.length).toBeGreaterThan(0);
    expectClean(tool.body);
  });

  it('MCP: search and document results', async () => {
    const issued = await api().call('POST', '/api/admin/mcp/tokens', { token: owner.token, body: { label: 'agent' } });
    const rpc = async (name: string, args: Record<string, unknown>) => {
      const r = await fetch(`${svc.url}/mcp/kb`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${issued.body.plain_token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      const body = (await r.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
      expect(body.result.isError).toBeUndefined();
      return JSON.parse(body.result.content[0].text);
    };
    const found = await rpc('kb-search', { query: 'refunds paid return', project_key: 'shop' });
    expect(found.results.length).toBeGreaterThan(0);
    expectClean(found);
    const doc = await rpc('kb-read-document', { document_id: found.results[0].document_id });
    expect(JSON.stringify(doc)).toContain('fourteen days');
    expectClean(doc);
  });
});
