import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const PASSWORD = 'correct horse battery staple';

const LEAVE = `# Parental leave

Employees receive sixteen weeks of paid parental leave, which can be split into two blocks within the first year.
`;

describe('kb-api conversations, presets, chat preferences and notifications (owner only); promotion switched off', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const as = (who: string, method: string, url: string, body?: unknown) => new KbClient(svc.url).call(method, url, { token: tokens[who], body });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    for (const [name, roles] of [
      ['alice', ['viewer']],
      ['bob', ['viewer']],
      ['erin', ['editor']],
    ] as const) {
      ids[name] = (await createUser(db, { email: `${name}@example.com`, roles: [...roles] })).id;
      tokens[name] = (await new KbClient(svc.url).call('POST', '/api/auth/token', { body: { email: `${name}@example.com`, password: PASSWORD } })).body.token;
    }
    await as('alice', 'POST', '/api/kb/ingest', { documents: [{ project_key: 'handbook', source_path: 'people/parental-leave.md', content: LEAVE }] });
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Booting kb-api and its worker and indexing one document: as the other e2e files allow on a busy 2-core machine.
  }, 90_000);

  afterAll(async () => {
    await worker?.close();
    await stop?.();
  });

  describe('promotion is off by default', () => {
    it('answers 503 promotion_disabled for suggest, promote, approve and reject; candidates still validates', async () => {
      for (const [who, url, body] of [
        ['alice', '/api/kb/promotion/suggest', { transcript: 'a: hello' }],
        ['alice', '/api/kb/promotion/promote', { project_key: 'handbook', markdown: '---\nslug: a\ntype: decision\nstatus: draft\n---\n# A' }],
        ['erin', '/api/kb/promotion/00000000-0000-4000-8000-000000000000/approve', { token: 't' }],
        ['erin', '/api/kb/promotion/00000000-0000-4000-8000-000000000000/reject', { token: 't' }],
      ] as const) {
        const r = await as(who, 'POST', url, body);
        expect([url, r.status, r.body.error]).toEqual([url, 503, 'promotion_disabled']);
      }
      const valid = await as('alice', 'POST', '/api/kb/promotion/candidates', { markdown: '---\nslug: a\ntype: runbook\nstatus: draft\n---\n# A' });
      expect(valid.status).toBe(200);
      expect(valid.body.valid).toBe(true);
      expect((await db.query('SELECT count(*)::int AS n FROM kb_promotion_approvals'))[0].n).toBe(0);
    });
  });

  describe('conversations', () => {
    let conversation: { id: number };

    it('creates, lists newest first, renames and keeps each chat turn with citations', async () => {
      const created = await as('alice', 'POST', '/api/conversations', { project_key: 'handbook' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: expect.any(Number), title: null, project_key: 'handbook' });
      conversation = created.body as { id: number };
      const older = (await as('alice', 'POST', '/api/conversations', {})).body;
      // null is "no project", as absent: what a conversation without one answers, sent back.
      const unscoped = await as('alice', 'POST', '/api/conversations', { project_key: null });
      expect(unscoped.status).toBe(201);
      expect(unscoped.body).toMatchObject({ project_key: null });
      expect((await as('alice', 'DELETE', `/api/conversations/${unscoped.body.id}`)).status).toBe(204);
      await new Promise((r) => setTimeout(r, 5));

      const reply = await as('alice', 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Paid parental leave for employees?' });
      expect(reply.status).toBe(201);
      expect(reply.headers.get('x-ai-disclosure')).toBeTruthy();
      expect(reply.body).toMatchObject({ id: expect.any(Number), role: 'assistant', rating: null, refusal_reason: null, confidence: expect.any(Number) });
      expect(reply.body.content).toContain('sixteen weeks');
      expect(reply.body.metadata).toMatchObject({ provider: 'none', model: 'extractive', refusal_reason: null, tool_calls_count: 0 });
      expect(reply.body.metadata.citations[0]).toMatchObject({ source_path: 'people/parental-leave.md', project_key: 'handbook' });

      const unfiltered = await as('alice', 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Paid parental leave for employees?', filters: null });
      expect(unfiltered.status).toBe(201);
      expect(unfiltered.body.content).toBe(reply.body.content);

      const refused = await as('alice', 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Which football team won the league?' });
      expect(refused.body).toMatchObject({ role: 'assistant', confidence: 0, refusal_reason: 'no_relevant_context', metadata: { provider: 'none', citations: [] } });

      const backwards = await as('alice', 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Paid parental leave?', filters: { date_from: '2026-02-01', date_to: '2026-01-01' } });
      expect(backwards.status).toBe(422);
      expect(Object.keys(backwards.body.errors)).toEqual(['filters.date_to']);
      expect((await as('alice', 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'x'.repeat(10_001) })).status).toBe(422);

      const messages = await as('alice', 'GET', `/api/conversations/${conversation.id}/messages`);
      expect(messages.body.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
      expect(messages.body[0].content).toBe('Paid parental leave for employees?');

      const list = await as('alice', 'GET', '/api/conversations');
      expect(list.body.map((c: { id: number }) => c.id)).toEqual([conversation.id, older.id]);

      const renamed = await as('alice', 'PATCH', `/api/conversations/${conversation.id}`, { title: '  Leave questions ' });
      expect(renamed.body).toMatchObject({ id: conversation.id, title: 'Leave questions' });
      expect((await as('alice', 'PATCH', `/api/conversations/${conversation.id}`, { title: 'x'.repeat(256) })).status).toBe(422);
    });

    it('rates an assistant message (the same rating again clears it) and names the conversation after its first question', async () => {
      const [user, assistant] = (await as('alice', 'GET', `/api/conversations/${conversation.id}/messages`)).body as Array<{ id: number }>;
      const url = `/api/conversations/${conversation.id}/messages/${assistant.id}/feedback`;
      expect((await as('alice', 'POST', url, { rating: 'positive' })).body).toEqual({ rating: 'positive' });
      expect((await as('alice', 'POST', url, { rating: 'negative' })).body).toEqual({ rating: 'negative' });
      expect((await as('alice', 'POST', url, { rating: 'negative' })).body).toEqual({ rating: null });
      const onUser = await as('alice', 'POST', `/api/conversations/${conversation.id}/messages/${user.id}/feedback`, { rating: 'positive' });
      expect(onUser.status).toBe(422);
      expect((await as('alice', 'POST', url, { rating: 'meh' })).status).toBe(422);

      const titled = await as('alice', 'POST', `/api/conversations/${conversation.id}/generate-title`);
      expect(titled.status).toBe(200);
      expect(titled.body).toEqual({ title: 'Paid parental leave for employees?' });
      const empty = (await as('alice', 'POST', '/api/conversations', {})).body;
      expect((await as('alice', 'POST', `/api/conversations/${empty.id}/generate-title`)).status).toBe(422);
    });

    it("is invisible to anyone but its owner: another user's calls answer 404 and change nothing", async () => {
      const base = `/api/conversations/${conversation.id}`;
      const [, assistant] = (await as('alice', 'GET', `${base}/messages`)).body as Array<{ id: number }>;
      expect((await as('bob', 'GET', '/api/conversations')).body).toEqual([]);
      for (const [method, url, body] of [
        ['GET', `${base}/messages`, undefined],
        ['POST', `${base}/messages`, { content: 'Paid parental leave?' }],
        ['PATCH', base, { title: 'mine now' }],
        ['POST', `${base}/messages/${assistant.id}/feedback`, { rating: 'negative' }],
        ['POST', `${base}/generate-title`, undefined],
        ['DELETE', base, undefined],
        ['GET', '/api/conversations/not-a-number/messages', undefined],
      ] as const) {
        const r = await as('bob', method, url, body);
        expect([method, url, r.status, r.body?.error]).toEqual([method, url, 404, 'not_found']);
      }
      const messages = (await as('alice', 'GET', `${base}/messages`)).body;
      expect(messages).toHaveLength(6);
      expect((await as('alice', 'GET', '/api/conversations')).body.find((c: { id: number }) => c.id === conversation.id).title).toBe('Paid parental leave for employees?');
      expect((await new KbClient(svc.url).call('GET', '/api/conversations')).status).toBe(401);
    });

    it('deletes with its messages', async () => {
      expect((await as('alice', 'DELETE', `/api/conversations/${conversation.id}`)).status).toBe(204);
      expect((await as('alice', 'GET', `/api/conversations/${conversation.id}/messages`)).status).toBe(404);
      expect((await db.query('SELECT count(*)::int AS n FROM kb_conversation_messages WHERE conversation_id = $1', [conversation.id]))[0].n).toBe(0);
    });
  });

  describe('chat-filter presets', () => {
    it('creates, lists by name, updates and deletes; names are unique per user', async () => {
      const b = await as('alice', 'POST', '/api/chat-filter-presets', { name: 'Handbook only', filters: { project_keys: ['handbook'] } });
      expect(b.status).toBe(201);
      expect(b.body.data).toMatchObject({ id: expect.any(Number), name: 'Handbook only', filters: { project_keys: ['handbook'] } });
      const a = await as('alice', 'POST', '/api/chat-filter-presets', { name: 'Answers from runbooks', filters: { canonical_types: ['runbook'], folder_globs: ['ops/**'] } });
      expect(a.status).toBe(201);
      const dup = await as('alice', 'POST', '/api/chat-filter-presets', { name: ' Handbook only ', filters: {} });
      expect(dup.status).toBe(422);
      expect(Object.keys(dup.body.errors)).toEqual(['name']);
      expect((await as('alice', 'POST', '/api/chat-filter-presets', { name: 'bad', filters: { doc_ids: ['x'] } })).status).toBe(422);
      expect((await as('alice', 'POST', '/api/chat-filter-presets', { name: '', filters: {} })).status).toBe(422);
      expect((await as('alice', 'POST', '/api/chat-filter-presets', { name: 'n'.repeat(121), filters: {} })).status).toBe(422);
      expect((await as('alice', 'POST', '/api/chat-filter-presets', { name: 'no filters' })).status).toBe(422);

      const list = await as('alice', 'GET', '/api/chat-filter-presets');
      expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Answers from runbooks', 'Handbook only']);

      const updated = await as('alice', 'PUT', `/api/chat-filter-presets/${b.body.data.id}`, { name: 'Handbook', filters: { project_keys: ['handbook'], tag_slugs: ['hr'] } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'Handbook', filters: { project_keys: ['handbook'], tag_slugs: ['hr'] } });
      const clash = await as('alice', 'PUT', `/api/chat-filter-presets/${b.body.data.id}`, { name: 'Answers from runbooks', filters: {} });
      expect(clash.status).toBe(422);
      expect((await as('alice', 'GET', `/api/chat-filter-presets/${b.body.data.id}`)).body.data.name).toBe('Handbook');

      expect((await as('alice', 'DELETE', `/api/chat-filter-presets/${a.body.data.id}`)).status).toBe(204);
      expect((await as('alice', 'GET', `/api/chat-filter-presets/${a.body.data.id}`)).status).toBe(404);
    });

    it("answers 404 for another user's preset, and lets that user reuse the name", async () => {
      const mine = (await as('alice', 'GET', '/api/chat-filter-presets')).body.data[0];
      expect((await as('bob', 'GET', '/api/chat-filter-presets')).body).toEqual({ data: [] });
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { name: 'taken over', filters: {} }],
        ['DELETE', undefined],
      ] as const) {
        const r = await as('bob', method, `/api/chat-filter-presets/${mine.id}`, body);
        expect([method, r.status, r.body?.error]).toEqual([method, 404, 'not_found']);
      }
      expect((await as('alice', 'GET', `/api/chat-filter-presets/${mine.id}`)).body.data).toMatchObject({ name: mine.name });
      expect((await as('bob', 'POST', '/api/chat-filter-presets', { name: mine.name, filters: {} })).status).toBe(201);
    });
  });

  describe('chat preferences', () => {
    it('answers the defaults, merges a patch (null removes a key) and rejects malformed values whole', async () => {
      expect((await as('alice', 'GET', '/api/me/chat-preferences')).body).toEqual({ preferences: {}, defaults: { counterfactual_enabled: true } });
      const set = await as('alice', 'PATCH', '/api/me/chat-preferences', { preferences: { counterfactual_enabled: false, show_runner_ups: true } });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ preferences: { counterfactual_enabled: false, show_runner_ups: true }, defaults: { counterfactual_enabled: true } });
      const unset = await as('alice', 'PATCH', '/api/me/chat-preferences', { preferences: { counterfactual_enabled: null } });
      expect(unset.body.preferences).toEqual({ show_runner_ups: true });

      const bad = await as('alice', 'PATCH', '/api/me/chat-preferences', { preferences: { compact: 'yes', 'Bad Key': true, fine_one: true } });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['preferences.Bad Key', 'preferences.compact']);
      const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`toggle_${i}`, true]));
      const tooMany = await as('alice', 'PATCH', '/api/me/chat-preferences', { preferences: many });
      expect(tooMany.status).toBe(422);
      expect((await as('alice', 'GET', '/api/me/chat-preferences')).body.preferences).toEqual({ show_runner_ups: true });
      expect((await as('bob', 'GET', '/api/me/chat-preferences')).body.preferences).toEqual({});
    });
  });

  describe('notifications', () => {
    const ids_: number[] = [];

    beforeAll(async () => {
      // Inbox fixtures: the events that produce notifications are exercised in the promotion suite.
      for (let i = 0; i < 25; i++) {
        const [row] = await db.query(
          `INSERT INTO kb_notifications (tenant_id, user_id, event_type, payload, created_at) VALUES ('default', $1, $2, $3, now() - make_interval(mins => $4)) RETURNING id`,
          [ids['alice'], i % 5 === 0 ? 'kb_promotion_rejected' : 'kb_canonical_promoted', JSON.stringify({ n: i }), 100 - i],
        );
        ids_.push(Number(row.id));
      }
      await db.query(`INSERT INTO kb_notifications (tenant_id, user_id, event_type, payload) VALUES ('default', $1, 'kb_canonical_promoted', '{}')`, [ids['bob']]);
    });

    it('pages the unread ones, newest first, and counts them', async () => {
      const first = await as('alice', 'GET', '/api/notifications');
      expect(first.body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 20, total: 25, state: 'unread' });
      expect(first.body.data[0]).toEqual({ id: ids_[24], event_type: 'kb_canonical_promoted', payload: { n: 24 }, created_at: expect.any(String), read_at: null, dismissed_at: null });
      const second = await as('alice', 'GET', '/api/notifications?page=2&per_page=20');
      expect(second.body.data.map((n: { id: number }) => n.id)).toEqual(ids_.slice(0, 5).reverse());
      const filtered = await as('alice', 'GET', '/api/notifications?event_type=kb_promotion_rejected&per_page=2');
      expect(filtered.body.meta).toMatchObject({ total: 5, last_page: 3, per_page: 2 });
      expect((await as('alice', 'GET', '/api/notifications?per_page=101')).status).toBe(422);
      expect((await as('alice', 'GET', '/api/notifications?state=new')).status).toBe(422);
      expect((await as('alice', 'GET', '/api/notifications/unread-count')).body).toEqual({ unread_count: 25 });
      expect((await as('bob', 'GET', '/api/notifications/unread-count')).body).toEqual({ unread_count: 1 });
    });

    it('marks read (idempotently), dismisses (which also reads) and marks all read by type', async () => {
      const read = await as('alice', 'POST', `/api/notifications/${ids_[24]}/mark-read`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ changed: true, data: { id: ids_[24], read_at: expect.any(String) } });
      const again = await as('alice', 'POST', `/api/notifications/${ids_[24]}/mark-read`);
      expect(again.body).toMatchObject({ changed: false, data: { read_at: read.body.data.read_at } });

      const dismissed = await as('alice', 'POST', `/api/notifications/${ids_[23]}/dismiss`);
      expect(dismissed.body.data).toMatchObject({ id: ids_[23], dismissed_at: expect.any(String), read_at: expect.any(String) });
      expect((await as('alice', 'GET', '/api/notifications?state=read')).body.data.map((n: { id: number }) => n.id)).toEqual([ids_[24]]);
      expect((await as('alice', 'GET', '/api/notifications?state=dismissed')).body.data.map((n: { id: number }) => n.id)).toEqual([ids_[23]]);
      expect((await as('alice', 'GET', '/api/notifications?state=all')).body.meta.total).toBe(25);

      // null is not "every type": refused, nothing marked.
      const nulled = await as('alice', 'POST', '/api/notifications/mark-all-read', { event_type: null });
      expect(nulled.status).toBe(422);
      expect(Object.keys(nulled.body.errors)).toEqual(['event_type']);
      const marked = await as('alice', 'POST', '/api/notifications/mark-all-read', { event_type: 'kb_promotion_rejected' });
      expect(marked.body).toEqual({ marked_read: 5 });
      expect((await as('alice', 'GET', '/api/notifications/unread-count')).body).toEqual({ unread_count: 18 });
      expect((await as('alice', 'POST', '/api/notifications/mark-all-read', {})).body).toEqual({ marked_read: 18 });
      expect((await as('alice', 'GET', '/api/notifications/unread-count')).body).toEqual({ unread_count: 0 });
    });

    it("answers 404 not_found for another user's or an unknown notification", async () => {
      for (const url of [`/api/notifications/${ids_[0]}/mark-read`, `/api/notifications/${ids_[1]}/dismiss`, '/api/notifications/999999/mark-read', '/api/notifications/abc/dismiss']) {
        const r = await as('bob', 'POST', url);
        expect([url, r.status, r.body.error]).toEqual([url, 404, 'not_found']);
      }
      expect((await db.query('SELECT count(*)::int AS n FROM kb_notifications WHERE user_id = $1 AND dismissed_at IS NOT NULL', [ids['alice']]))[0].n).toBe(1);
      expect((await as('bob', 'POST', '/api/notifications/mark-all-read', {})).body).toEqual({ marked_read: 1 });
      expect((await as('bob', 'GET', '/api/notifications?state=all')).body.meta.total).toBe(1);
    });

    it('keeps per-user delivery preferences; an unknown event type or channel rejects the request', async () => {
      const initial = await as('alice', 'GET', '/api/notifications/preferences');
      expect(initial.body).toMatchObject({ registered_channels: ['in_app'], preferences: [], defaults: { in_app: true } });
      expect(initial.body.event_types).toEqual(expect.arrayContaining(['kb_canonical_promoted', 'kb_promotion_awaiting_approval', 'kb_promotion_rejected', 'kb_ingest_failed']));
      expect(initial.body.channels).toEqual(['in_app', 'email', 'discord', 'slack', 'teams', 'webhook']);
      const saved = await as('alice', 'PUT', '/api/notifications/preferences', { preferences: [{ event_type: 'kb_promotion_awaiting_approval', channel: 'in_app', enabled: false }] });
      expect(saved.status).toBe(200);
      expect(saved.body.preferences).toEqual([{ event_type: 'kb_promotion_awaiting_approval', channel: 'in_app', enabled: false }]);
      const bad = await as('alice', 'PUT', '/api/notifications/preferences', { preferences: [{ event_type: 'kb_canonical_promoted', channel: 'email', enabled: true }, { event_type: 'nope', channel: 'pager', enabled: true }] });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['preferences.1.channel', 'preferences.1.event_type']);
      expect((await as('alice', 'GET', '/api/notifications/preferences')).body.preferences).toHaveLength(1);
      expect((await as('bob', 'GET', '/api/notifications/preferences')).body.preferences).toEqual([]);
      expect((await as('alice', 'GET', '/api/notifications/event-types')).body.data).toContain('kb_ingest_failed');
    });
  });
});
