import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QUEUES } from '@platform/contracts';
import { createRedis } from '@platform/queue';
import { Clock, startWorker, WorkerHandle } from '@platform/runtime';
import { FakeOpenAiServer, RunningService } from '@platform/testing';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { NO_FRONTMATTER } from '../src/app/promotion/frontmatter';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const PASSWORD = 'correct horse battery staple';

const draft = (slug: string, extra = '') => `---
slug: ${slug}
type: decision
status: accepted
tags: [storage, backups]
related: ["[[backup-policy]]", retention]
${extra}---
# Keep object snapshots for ninety days

Object storage snapshots of the ${slug.replace(/-/g, ' ')} are kept for ninety days in a separate account, so a compromised production account cannot delete them.
`;

/** Every file under a directory, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

describe('kb-api promotion: human-gated path to canonical storage', () => {
  const llm = new FakeOpenAiServer();
  const storage = mkdtempSync(path.join(tmpdir(), 'kb-promotion-'));
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle | undefined;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const as = (who: string, method: string, url: string, body?: unknown) => new KbClient(svc.url).call(method, url, { token: tokens[who], body });
  const count = async (sql: string, params: unknown[] = []) => (await db.query(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n as number;
  const promote = async (slug: string, who = 'author') => {
    const r = await as(who, 'POST', '/api/kb/promotion/promote', { project_key: 'ops', markdown: draft(slug) });
    expect(r.status).toBe(202);
    return r.body;
  };
  const waitFor = async (check: () => Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    await llm.start();
    process.env.KB_STORAGE_PATH_OVERRIDE = storage;
    ({ svc, db, stop } = await startKb({
      KB_PROMOTION_ENABLED: 'true',
      KB_APP_URL: 'http://kb.example.test',
      KB_CHAT_PROVIDER: 'openai',
      KB_LLM_BASE_URL: llm.url,
      KB_LLM_MODEL: 'test-model',
      KB_LLM_TIMEOUT_MS: '2000',
    }));
    delete process.env.KB_STORAGE_PATH_OVERRIDE;
    const users: Array<[string, string[], string?]> = [
      ['author', ['viewer']],
      ['editor', ['editor']],
      ['admin', ['admin']],
      ['viewer', ['viewer']],
      ['outsider', ['editor'], 'other'],
    ];
    for (const [name, roles, tenant] of users) {
      ids[name] = (await createUser(db, { email: `${name}@example.com`, roles, tenant })).id;
      tokens[name] = (await new KbClient(svc.url).call('POST', '/api/auth/token', { body: { email: `${name}@example.com`, password: PASSWORD } })).body.token;
    }
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
    await llm.stop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('candidates: a valid draft answers 200 with what it declares; nothing is written', async () => {
    const r = await as('author', 'POST', '/api/kb/promotion/candidates', { markdown: draft('snapshot-retention', 'id: DEC-7\nretrieval_priority: 80\nowners: [platform-team]\n') });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      valid: true,
      parsed: {
        doc_id: 'DEC-7',
        slug: 'snapshot-retention',
        type: 'decision',
        status: 'accepted',
        title_line: 'Keep object snapshots for ninety days',
        retrieval_priority: 80,
        related_slugs: ['backup-policy', 'retention'],
        supersedes_slugs: [],
        superseded_by_slugs: [],
        tags: ['storage', 'backups'],
        owners: ['platform-team'],
        summary: null,
      },
    });
    expect(await count('kb_promotion_approvals')).toBe(0);
    expect(await count('kb_documents')).toBe(0);
  });

  it('candidates: 422 {valid: false, errors} keyed by field, for an absent or a bad frontmatter and over the size limit', async () => {
    const none = await as('author', 'POST', '/api/kb/promotion/candidates', { markdown: '# Just a heading\n\nNo frontmatter here.' });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ valid: false, errors: { frontmatter: [NO_FRONTMATTER] } });

    const bad = await as('author', 'POST', '/api/kb/promotion/candidates', { markdown: '---\nslug: Not A Slug\ntype: memo\nretrieval_priority: 101\n---\n# x\n' });
    expect(bad.status).toBe(422);
    expect(bad.body.valid).toBe(false);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['retrieval_priority', 'slug', 'status', 'type']);

    const yaml = await as('author', 'POST', '/api/kb/promotion/candidates', { markdown: '---\nslug: [unclosed\n---\n' });
    expect(yaml.status).toBe(422);
    expect(yaml.body.errors.frontmatter[0]).toMatch(/not valid YAML/);

    const huge = await as('author', 'POST', '/api/kb/promotion/candidates', { markdown: 'x'.repeat(200_001) });
    expect(huge.status).toBe(422);
    expect(Object.keys(huge.body.errors)).toEqual(['markdown']);
    expect(await count('kb_promotion_approvals')).toBe(0);
  });

  it('suggest: asks the model with the transcript, keeps only well-formed new candidates, writes nothing', async () => {
    llm.reply({
      content: JSON.stringify({
        candidates: [
          { type: 'runbook', slug_proposal: 'Restore From Snapshot', title_proposal: 'Restore a bucket from a snapshot', reason: 'Asked three times this month.', related: ['[[snapshot-retention]]', 'Bad Slug!'] },
          { type: 'memo', slug_proposal: 'not-a-type', title_proposal: 'Dropped: unknown type', reason: '' },
          { type: 'decision', slug_proposal: 'backup-policy', title_proposal: 'Dropped: the slug exists', reason: '' },
          { type: 'incident', slug_proposal: 'restore-from-snapshot', title_proposal: 'Dropped: a repeat', reason: '' },
          { type: 'standard', slug_proposal: 'x', title_proposal: '' },
        ],
      }),
    });
    const transcript = 'alice: how do I restore a bucket?\nbob: from the snapshot account, see the retention decision.';
    const r = await as('author', 'POST', '/api/kb/promotion/suggest', { transcript, project_key: 'ops', existing_slugs: ['backup-policy'] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      candidates: [{ type: 'runbook', slug_proposal: 'restore-from-snapshot', title_proposal: 'Restore a bucket from a snapshot', reason: 'Asked three times this month.', related: ['snapshot-retention', 'bad-slug'] }],
    });
    const sent = JSON.stringify(llm.calls[llm.calls.length - 1].body);
    expect(sent).toContain('restore a bucket?');
    expect(sent).toContain('backup-policy');
    expect(await count('kb_promotion_approvals')).toBe(0);

    const long = await as('author', 'POST', '/api/kb/promotion/suggest', { transcript: 't'.repeat(50_001) });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.errors)).toEqual(['transcript']);
    // null is not "no project" nor "no slugs": refused by name before the model is asked.
    const asked = llm.calls.length;
    const nulls = await as('author', 'POST', '/api/kb/promotion/suggest', { transcript, project_key: null, existing_slugs: null });
    expect([nulls.status, Object.keys(nulls.body.errors).sort()]).toEqual([422, ['existing_slugs', 'project_key']]);
    expect(llm.calls.length).toBe(asked);

    llm.reply({ status: 500 });
    const down = await as('author', 'POST', '/api/kb/promotion/suggest', { transcript });
    expect(down.status).toBe(502);
    expect(down.body.error).toBe('llm_unavailable');
  });

  it('promote: 422 no_frontmatter / invalid_frontmatter with errors; nothing written', async () => {
    const none = await as('author', 'POST', '/api/kb/promotion/promote', { project_key: 'ops', markdown: '# No frontmatter' });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error: 'no_frontmatter', errors: { frontmatter: [NO_FRONTMATTER] } });
    const bad = await as('author', 'POST', '/api/kb/promotion/promote', { project_key: 'ops', markdown: '---\nslug: ok-slug\ntype: decision\nstatus: final\n---\n# x' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: 'invalid_frontmatter', errors: { status: [expect.any(String)] } });
    const noProject = await as('author', 'POST', '/api/kb/promotion/promote', { markdown: draft('x-y') });
    expect(noProject.status).toBe(422);
    expect(Object.keys(noProject.body.errors)).toEqual(['project_key']);
    // null is not "the frontmatter title": refused by name, nothing paused.
    const nullTitle = await as('author', 'POST', '/api/kb/promotion/promote', { project_key: 'ops', markdown: draft('null-title'), title: null });
    expect([nullTitle.status, Object.keys(nullTitle.body.errors)]).toEqual([422, ['title']]);
    expect(await count('kb_promotion_approvals')).toBe(0);
    expect((await new KbClient(svc.url).call('POST', '/api/kb/promotion/promote', { body: { project_key: 'ops', markdown: draft('x') } })).status).toBe(401);
  });

  it('promote: 202 paused with a single-use token; only its hash is stored; approvers are notified; nothing written', async () => {
    const r = await as('author', 'POST', '/api/kb/promotion/promote', { project_key: 'ops', markdown: draft('paused-run', 'id: DEC-9\n'), title: 'Paused run' });
    expect(r.status).toBe(202);
    const { approval } = r.body;
    expect(r.body).toMatchObject({ status: 'paused', flow_run_id: expect.stringMatching(/^[0-9a-f-]{36}$/), doc_id: 'DEC-9', slug: 'paused-run', path: 'decisions/paused-run.md' });
    expect(approval).toEqual({
      approval_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
      approve_path: `/api/kb/promotion/${approval.approval_id}/approve`,
      reject_path: `/api/kb/promotion/${approval.approval_id}/reject`,
      approve_url: `http://kb.example.test/api/kb/promotion/${approval.approval_id}/approve`,
      reject_url: `http://kb.example.test/api/kb/promotion/${approval.approval_id}/reject`,
    });
    const expiresIn = Date.parse(approval.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);
    const [row] = await db.query('SELECT status, token_hash, requested_by FROM kb_promotion_approvals WHERE id = $1', [approval.approval_id]);
    expect(row).toMatchObject({ status: 'pending', requested_by: ids['author'] });
    expect(row.token_hash).not.toContain(approval.token);
    expect(await count(`kb_promotion_approvals WHERE token_hash LIKE '%' || $1 || '%'`, [approval.token])).toBe(0);
    expect(await count('kb_documents')).toBe(0);
    expect(filesUnder(storage)).toEqual([]);
    const [audit] = await db.query(`SELECT action, actor_user_id FROM kb_promotion_audit WHERE approval_id = $1`, [approval.approval_id]);
    expect(audit).toEqual({ action: 'requested', actor_user_id: ids['author'] });

    const notified = await db.query(`SELECT user_id FROM kb_notifications WHERE event_type = 'kb_promotion_awaiting_approval' AND payload->>'approval_id' = $1 ORDER BY user_id`, [approval.approval_id]);
    expect(notified.map((n: { user_id: string }) => n.user_id)).toEqual([ids['editor'], ids['admin']]);
    const inbox = await as('editor', 'GET', '/api/notifications');
    expect(inbox.body.data[0]).toMatchObject({ event_type: 'kb_promotion_awaiting_approval', payload: { approval_id: approval.approval_id, slug: 'paused-run', title: 'Paused run' } });
  });

  it('approve: refuses a caller without kb.promote.any, a wrong or missing token, an unknown id and another tenant; each refusal is audited', async () => {
    const { approval } = await promote('guarded-run');
    const viewer = await as('viewer', 'POST', approval.approve_path, { token: approval.token });
    expect(viewer.status).toBe(403);
    expect(viewer.body).toEqual({ message: 'This action is unauthorized.' });
    const wrong = await as('editor', 'POST', approval.approve_path, { token: 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ error: 'forbidden' });
    const missing = await as('editor', 'POST', approval.approve_path, {});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['token']);
    // null is not "the caller" nor "no reason" nor "the ?token= one": refused by name, before any decision or audit.
    const nullActor = await as('editor', 'POST', approval.approve_path, { token: approval.token, actor: null });
    expect([nullActor.status, Object.keys(nullActor.body.errors)]).toEqual([422, ['actor']]);
    const nullToken = await as('editor', 'POST', `${approval.approve_path}?token=${approval.token}`, { token: null });
    expect([nullToken.status, Object.keys(nullToken.body.errors)]).toEqual([422, ['token']]);
    const nullReject = await as('editor', 'POST', approval.reject_path, { token: approval.token, actor: null, reason: null });
    expect([nullReject.status, Object.keys(nullReject.body.errors).sort()]).toEqual([422, ['actor', 'reason']]);
    expect((await as('editor', 'POST', '/api/kb/promotion/00000000-0000-4000-8000-000000000000/approve', { token: approval.token })).body.error).toBe('forbidden');
    expect((await as('editor', 'POST', '/api/kb/promotion/not-a-uuid/approve', { token: approval.token })).body.error).toBe('forbidden');
    const foreign = await as('outsider', 'POST', approval.approve_path, { token: approval.token });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('forbidden');
    expect((await as('editor', 'POST', approval.reject_path, { token: 'nope' })).body.error).toBe('forbidden');
    expect((await new KbClient(svc.url).call('POST', approval.approve_path, { body: { token: approval.token } })).status).toBe(401);

    const [row] = await db.query('SELECT status FROM kb_promotion_approvals WHERE id = $1', [approval.approval_id]);
    expect(row.status).toBe('pending');
    const denied = await db.query(`SELECT actor_user_id, detail->>'attempted' AS attempted FROM kb_promotion_audit WHERE approval_id = $1 AND action = 'denied' ORDER BY id`, [approval.approval_id]);
    expect(denied).toEqual([
      { actor_user_id: ids['editor'], attempted: 'approved' },
      { actor_user_id: ids['outsider'], attempted: 'approved' },
      { actor_user_id: ids['editor'], attempted: 'rejected' },
    ]);
    // The outsider's refusal is recorded in the outsider's own tenant.
    expect(await count(`kb_promotion_audit WHERE action = 'denied' AND actor_user_id = $1 AND tenant_id = 'other'`, [ids['outsider']])).toBe(1);
    expect(await count('kb_documents')).toBe(0);
  });

  it('approve: writes canonical storage and dispatches the ingest once; the token is then spent', async () => {
    const { approval, flow_run_id } = await promote('snapshot-retention');
    const r = await new KbClient(svc.url).call('POST', `${approval.approve_path}?token=${approval.token}`, { token: tokens['editor'], body: { actor: 'Erin (on-call lead)' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'accepted', flow_run_id, approval_id: approval.approval_id, path: 'decisions/snapshot-retention.md', document_id: expect.any(Number) });
    const [doc] = await db.query(`SELECT project_key, source_path, title, slug, status, metadata FROM kb_documents WHERE id = $1`, [r.body.document_id]);
    expect(doc).toMatchObject({ project_key: 'ops', source_path: 'decisions/snapshot-retention.md', slug: 'snapshot-retention', status: 'pending', metadata: { canonical_type: 'decision', promotion: { approval_id: approval.approval_id, requested_by: Number(ids['author']), approved_by: Number(ids['editor']) } } });
    expect(filesUnder(storage)).toEqual([path.join('default', 'ops', 'decisions', 'snapshot-retention.md')]);
    const [audit] = await db.query(`SELECT actor_user_id, actor_label, detail->>'via' AS via FROM kb_promotion_audit WHERE approval_id = $1 AND action = 'approved'`, [approval.approval_id]);
    expect(audit).toEqual({ actor_user_id: ids['editor'], actor_label: 'Erin (on-call lead)', via: 'token' });

    const again = await as('editor', 'POST', approval.approve_path, { token: approval.token });
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('forbidden');
    expect((await as('admin', 'POST', approval.reject_path, { token: approval.token })).status).toBe(403);
    expect(await count(`kb_documents WHERE source_path = 'decisions/snapshot-retention.md'`)).toBe(1);

    const inbox = await as('author', 'GET', '/api/notifications?event_type=kb_canonical_promoted');
    expect(inbox.body.data).toHaveLength(1);
    expect(inbox.body.data[0].payload).toMatchObject({ approval_id: approval.approval_id, document_id: r.body.document_id, path: 'decisions/snapshot-retention.md' });
  });

  it('reject: discards the paused run, writes nothing and tells the requester; the token cannot approve afterwards', async () => {
    const { approval, flow_run_id } = await promote('rejected-idea');
    const r = await as('admin', 'POST', approval.reject_path, { token: approval.token, reason: 'Duplicates the retention decision.', actor: 'Ada' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'rejected', flow_run_id, approval_id: approval.approval_id });
    const [row] = await db.query('SELECT status, markdown, decided_by, decision_reason FROM kb_promotion_approvals WHERE id = $1', [approval.approval_id]);
    expect(row).toEqual({ status: 'rejected', markdown: null, decided_by: ids['admin'], decision_reason: 'Duplicates the retention decision.' });
    expect((await as('editor', 'POST', approval.approve_path, { token: approval.token })).status).toBe(403);
    expect(await count(`kb_documents WHERE slug = 'rejected-idea'`)).toBe(0);
    expect(filesUnder(storage).some((f) => f.includes('rejected-idea'))).toBe(false);
    expect(await count(`kb_promotion_audit WHERE approval_id = $1 AND action = 'rejected' AND actor_user_id = $2 AND actor_label = 'Ada'`, [approval.approval_id, ids['admin']])).toBe(1);
    const inbox = await as('author', 'GET', '/api/notifications?event_type=kb_promotion_rejected');
    expect(inbox.body.data[0].payload).toMatchObject({ approval_id: approval.approval_id, reason: 'Duplicates the retention decision.' });
  });

  it('an approver who turned the event off for in-app delivery is not notified', async () => {
    const off = await as('admin', 'PUT', '/api/notifications/preferences', { preferences: [{ event_type: 'kb_promotion_awaiting_approval', channel: 'in_app', enabled: false }] });
    expect(off.status).toBe(200);
    const { approval } = await promote('quiet-run');
    const notified = await db.query(`SELECT user_id FROM kb_notifications WHERE event_type = 'kb_promotion_awaiting_approval' AND payload->>'approval_id' = $1`, [approval.approval_id]);
    expect(notified).toEqual([{ user_id: ids['editor'] }]);
    await as('admin', 'PUT', '/api/notifications/preferences', { preferences: [{ event_type: 'kb_promotion_awaiting_approval', channel: 'in_app', enabled: true }] });
  });

  it('a signed-in human approves through the session cookie, which also needs the CSRF header', async () => {
    const { approval } = await promote('session-approved');
    const browser = new KbClient(svc.url);
    expect((await browser.call('POST', '/api/auth/login', { body: { email: 'admin@example.com', password: PASSWORD } })).status).toBe(200);
    const noCsrf = await browser.call('POST', approval.approve_path, { body: { token: approval.token }, csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error).toBe('csrf_token_mismatch');
    const r = await browser.call('POST', approval.approve_path, { body: { token: approval.token } });
    expect(r.status).toBe(200);
    const [audit] = await db.query(`SELECT actor_user_id, detail->>'via' AS via FROM kb_promotion_audit WHERE approval_id = $1 AND action = 'approved'`, [approval.approval_id]);
    expect(audit).toEqual({ actor_user_id: ids['admin'], via: 'session' });
  });

  it('an expired token neither approves nor rejects', async () => {
    const { approval } = await promote('late-run');
    // The lifetime is at least a minute; move the deadline instead of waiting for it.
    await db.query(`UPDATE kb_promotion_approvals SET expires_at = now() - interval '1 second' WHERE id = $1`, [approval.approval_id]);
    expect((await as('editor', 'POST', approval.approve_path, { token: approval.token })).body).toMatchObject({ error: 'forbidden' });
    expect((await as('editor', 'POST', approval.reject_path, { token: approval.token })).body).toMatchObject({ error: 'forbidden' });
    const [row] = await db.query('SELECT status FROM kb_promotion_approvals WHERE id = $1', [approval.approval_id]);
    expect(row.status).toBe('pending');
    expect(await count(`kb_documents WHERE slug = 'late-run'`)).toBe(0);
  });

  it('an approval token lapses when the clock passes its lifetime (the clock moves, the row stays as issued)', async () => {
    const { approval } = await promote('lapsing-run');
    const clock = svc.app.get(Clock);
    const lifetime = Date.parse(approval.expires_at) - clock.nowMs();
    clock.advance(lifetime + 1_000);
    try {
      expect((await as('editor', 'POST', approval.approve_path, { token: approval.token })).body).toMatchObject({ error: 'forbidden' });
    } finally {
      clock.advance(-(lifetime + 1_000));
    }
    const [row] = await db.query('SELECT status, expires_at FROM kb_promotion_approvals WHERE id = $1', [approval.approval_id]);
    expect(row.status).toBe('pending');
    expect(new Date(row.expires_at).toISOString()).toBe(approval.expires_at);
    // Back within the lifetime, the same token still decides the run.
    expect((await as('editor', 'POST', approval.reject_path, { token: approval.token, reason: 'not needed' })).status).toBe(200);
  });

  it('concurrent approvals: exactly one writes and dispatches', async () => {
    // The worker is not running yet, so every dispatched IngestDocumentJob is still in the queue.
    const connection = createRedis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUES.kbIngest, { connection, prefix: process.env.REDIS_PREFIX });
    const jobsFor = async (documentId: number) => (await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) => String(j.data.documentId) === String(documentId)).length;
    for (let round = 0; round < 3; round++) {
      const { approval } = await promote(`raced-approval-${round}`);
      const results = await Promise.all(['editor', 'admin', 'editor', 'admin', 'editor', 'admin'].map((who) => as(who, 'POST', approval.approve_path, { token: approval.token })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403, 403]);
      expect(await jobsFor(results.find((r) => r.status === 200)!.body.document_id)).toBe(1);
      expect(await count(`kb_documents WHERE slug = $1`, [`raced-approval-${round}`])).toBe(1);
      expect(await count(`kb_promotion_audit WHERE approval_id = $1 AND action = 'approved'`, [approval.approval_id])).toBe(1);
      expect(await count(`kb_notifications WHERE event_type = 'kb_canonical_promoted' AND payload->>'approval_id' = $1`, [approval.approval_id])).toBe(1);
    }
    await queue.close();
    connection.disconnect();
  });

  it('concurrent approve and reject: one decision wins and the state agrees with it', async () => {
    for (let round = 0; round < 4; round++) {
      const slug = `raced-decision-${round}`;
      const { approval } = await promote(slug);
      const [approved, rejected] = await Promise.all([as('editor', 'POST', approval.approve_path, { token: approval.token }), as('admin', 'POST', approval.reject_path, { token: approval.token })]);
      expect([approved.status, rejected.status].sort()).toEqual([200, 403]);
      const [row] = await db.query('SELECT status FROM kb_promotion_approvals WHERE id = $1', [approval.approval_id]);
      expect(row.status).toBe(approved.status === 200 ? 'approved' : 'rejected');
      expect(await count(`kb_documents WHERE slug = $1`, [slug])).toBe(approved.status === 200 ? 1 : 0);
    }
  });

  it('a failed canonical write answers 202 with the failed step and notifies; a failed indexing notifies the requester', async () => {
    const blocked = await promote('blocked-write');
    // A directory where the document file should go makes the storage write fail.
    mkdirSync(path.join(storage, 'default', 'ops', 'decisions', 'blocked-write.md'), { recursive: true });
    writeFileSync(path.join(storage, 'default', 'ops', 'decisions', 'blocked-write.md', 'occupied'), 'x');
    const r = await as('editor', 'POST', blocked.approval.approve_path, { token: blocked.approval.token });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ status: 'failed', flow_run_id: blocked.flow_run_id, approval_id: blocked.approval.approval_id, failed_step: 'write_canonical' });
    expect((await db.query('SELECT status FROM kb_promotion_approvals WHERE id = $1', [blocked.approval.approval_id]))[0].status).toBe('failed');
    expect(await count(`kb_promotion_audit WHERE approval_id = $1 AND action = 'dispatch_failed'`, [blocked.approval.approval_id])).toBe(1);
    expect(await count(`kb_notifications WHERE event_type = 'kb_ingest_failed' AND user_id = $1 AND payload->>'approval_id' = $2`, [ids['author'], blocked.approval.approval_id])).toBe(1);

    // Written, then the file disappears before the worker runs: the worker's failure reaches the requester.
    const vanished = await promote('vanished-file');
    const ok = await as('editor', 'POST', vanished.approval.approve_path, { token: vanished.approval.token });
    expect(ok.status).toBe(200);
    rmSync(path.join(storage, 'default', 'ops', 'decisions', 'vanished-file.md'));
    // A plain ingest that claims to come from that promotion does not reach the requester.
    const spoof = await as('viewer', 'POST', '/api/kb/ingest', {
      documents: [{ project_key: 'ops', source_path: 'decisions/spoofed.md', content: '# Spoofed', metadata: { promotion: { approval_id: vanished.approval.approval_id, requested_by: Number(ids['author']) } } }],
    });
    expect(spoof.status).toBe(202);
    rmSync(path.join(storage, 'default', 'ops', 'decisions', 'spoofed.md'));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await waitFor(async () => (await count(`kb_documents WHERE slug IN ('vanished-file', 'spoofed') AND status = 'failed'`)) === 2);
    expect(await count(`kb_notifications WHERE event_type = 'kb_ingest_failed' AND payload->>'approval_id' = $1`, [vanished.approval.approval_id])).toBe(1);
    expect(await count(`kb_notifications WHERE payload->>'source_path' = 'decisions/spoofed.md'`)).toBe(0);
    const inbox = await as('author', 'GET', '/api/notifications?event_type=kb_ingest_failed');
    expect(inbox.body.data.map((n: { payload: { approval_id: string } }) => n.payload.approval_id)).toEqual(
      expect.arrayContaining([vanished.approval.approval_id, blocked.approval.approval_id]),
    );
  });

  it('an approved promotion ends up indexed and cited in chat', async () => {
    worker ??= await startWorker((await import('../src/worker.module')).WorkerModule);
    await waitFor(async () => (await count(`kb_documents WHERE slug = 'snapshot-retention' AND status = 'indexed'`)) === 1);
    // The other promoted documents settle too, so the corpus the answer is scored against is final.
    await waitFor(async () => (await count(`kb_documents WHERE status = 'pending'`)) === 0);
    llm.reply({ content: JSON.stringify({ answer: 'Snapshots are kept for ninety days in a separate account [1].' }) });
    const r = await as('viewer', 'POST', '/api/kb/chat', { question: 'Which separate account keeps the snapshot retention snapshots?', filters: { project_keys: ['ops'] } });
    expect(r.status).toBe(200);
    expect(r.body.refusal_reason).toBeNull();
    expect(r.body.citations.map((c: { source_path: string }) => c.source_path)).toContain('decisions/snapshot-retention.md');
    expect(JSON.stringify(llm.calls[llm.calls.length - 1].body)).toContain('separate account');
  });
});
