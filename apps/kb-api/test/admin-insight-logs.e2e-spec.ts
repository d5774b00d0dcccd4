import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const EMAIL = 'ada.lovelace@example.com';
const CARD = '4111 1111 1111 1111';
const QUESTION = `Can ${EMAIL} pay the invoice with card ${CARD}?`;

describe('kb-api admin insight: PII strategy, logs and compliance reports', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  const who: Record<'viewer' | 'editor' | 'admin' | 'superAdmin' | 'dpo' | 'otherAdmin', Caller> =
    {} as never;
  const as = (caller: Caller | undefined, method: string, path: string, body?: unknown) =>
    new KbClient(svc.url).call(method, path, { token: caller?.token, body });
  const raw = (caller: Caller, path: string) =>
    fetch(svc.url + path, { headers: { authorization: `Bearer ${caller.token}` } });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    who.viewer = await callerWith(svc.url, db, { email: 'viewer@insight.test', roles: ['viewer'] });
    who.editor = await callerWith(svc.url, db, { email: 'editor@insight.test', roles: ['editor'] });
    who.admin = await callerWith(svc.url, db, { email: 'admin@insight.test', roles: ['admin'] });
    who.superAdmin = await callerWith(svc.url, db, {
      email: 'super@insight.test',
      roles: ['super-admin'],
    });
    who.dpo = await callerWith(svc.url, db, { email: 'dpo@insight.test', roles: ['dpo'] });
    who.otherAdmin = await callerWith(svc.url, db, {
      email: 'admin@other.test',
      roles: ['admin'],
      tenant: 'other',
    });
  });
  afterAll(() => stop());

  it('gate G1: 401 for guests, 403 for viewers, editors and dpos, 200 (or 404 for a missing id) for admins', async () => {
    // What an admin gets: the lists answer 200; ids that do not exist (yet) answer 404, not 403.
    const routes: Array<[string, string, unknown, number]> = [
      ['GET', '/api/admin/logs/chat', undefined, 200],
      ['GET', '/api/admin/logs/chat/1', undefined, 404],
      ['GET', '/api/admin/logs/canonical-audit', undefined, 200],
      ['GET', '/api/admin/logs/application', undefined, 200],
      ['GET', '/api/admin/logs/activity', undefined, 200],
      ['GET', '/api/admin/logs/failed-jobs', undefined, 200],
      ['POST', '/api/admin/logs/failed-jobs/nope/retry', undefined, 404],
      ['DELETE', '/api/admin/logs/failed-jobs/nope', undefined, 404],
      ['GET', '/api/admin/insights', undefined, 200],
      ['GET', '/api/admin/insights/history', undefined, 200],
      ['POST', '/api/admin/compliance/reports', { kind: 'retention' }, 201],
      ['GET', '/api/admin/compliance/reports', undefined, 200],
      ['GET', '/api/admin/compliance/reports/999', undefined, 404],
      ['GET', '/api/admin/compliance/reports/999/download', undefined, 404],
      ['DELETE', '/api/admin/compliance/reports/999', undefined, 404],
    ];
    for (const [method, path, body, expected] of routes) {
      expect([method, path, (await as(undefined, method, path, body)).status]).toEqual([
        method,
        path,
        401,
      ]);
      for (const denied of [who.viewer, who.editor, who.dpo])
        expect([method, path, (await as(denied, method, path, body)).status]).toEqual([
          method,
          path,
          403,
        ]);
      expect([method, path, (await as(who.admin, method, path, body)).status]).toEqual([method, path, expected]);
    }
    // The two routes with a second gate: admins lack pii.detokenize and commands.destructive.
    expect((await as(undefined, 'POST', '/api/admin/logs/chat/1/detokenize')).status).toBe(401);
    expect((await as(who.viewer, 'POST', '/api/admin/logs/chat/1/detokenize')).status).toBe(403);
    expect((await as(who.dpo, 'POST', '/api/admin/logs/chat/1/detokenize')).status).toBe(403);
    expect((await as(who.viewer, 'POST', '/api/admin/insights/compute', {})).status).toBe(403);
  });

  describe('PII strategy', () => {
    it('is open to admins, super-admins and dpos only', async () => {
      expect((await as(undefined, 'GET', '/api/admin/pii/strategy')).status).toBe(401);
      expect((await as(who.viewer, 'GET', '/api/admin/pii/strategy')).status).toBe(403);
      expect((await as(who.editor, 'PUT', '/api/admin/pii/strategy', { actions: {} })).status).toBe(
        403,
      );
      for (const allowed of [who.admin, who.superAdmin, who.dpo])
        expect((await as(allowed, 'GET', '/api/admin/pii/strategy')).status).toBe(200);
    });

    it('masks every detector until told otherwise, and validates each detector and action', async () => {
      const r = await as(who.dpo, 'GET', '/api/admin/pii/strategy');
      expect(r.body.data).toMatchObject({
        detokenize_permission: 'pii.detokenize',
        available_actions: ['keep', 'mask', 'tokenize'],
        updated_at: null,
      });
      expect(r.body.data.detectors).toEqual(
        expect.arrayContaining(['email', 'phone', 'iban', 'credit_card', 'ipv4', 'ipv6']),
      );
      for (const d of r.body.data.detectors) expect(r.body.data.actions[d]).toBe('mask');

      const bad = await as(who.dpo, 'PUT', '/api/admin/pii/strategy', {
        actions: { email: 'shred', fingerprint: 'mask' },
        detokenize_permission: 'root',
      });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual([
        'actions.email',
        'actions.fingerprint',
        'detokenize_permission',
      ]);
      const notObject = await as(who.dpo, 'PUT', '/api/admin/pii/strategy', { actions: 'mask' });
      expect(notObject.status).toBe(422);
      expect(Object.keys(notObject.body.errors)).toEqual(['actions']);
    });

    it('is per tenant: a change in one tenant leaves another alone', async () => {
      const put = await as(who.dpo, 'PUT', '/api/admin/pii/strategy', {
        actions: { email: 'tokenize', phone: 'keep' },
      });
      expect(put.status).toBe(200);
      expect(put.body.data.actions).toMatchObject({
        email: 'tokenize',
        phone: 'keep',
        credit_card: 'mask',
      });
      expect(put.body.data.updated_by).toBe(who.dpo.id);
      // A PUT of one detector keeps the others.
      const again = await as(who.admin, 'PUT', '/api/admin/pii/strategy', {
        actions: { iban: 'keep' },
      });
      expect(again.body.data.actions).toMatchObject({
        email: 'tokenize',
        phone: 'keep',
        iban: 'keep',
      });
      const other = await as(who.otherAdmin, 'GET', '/api/admin/pii/strategy');
      expect(other.body.data.actions).toMatchObject({ email: 'mask', phone: 'mask', iban: 'mask' });
    });
  });

  describe('chat logs', () => {
    let logId: string;

    it('stores questions redacted by the strategy: tokenized values encrypted, masked ones gone', async () => {
      const chat = await as(who.viewer, 'POST', '/api/kb/chat', {
        question: QUESTION,
        project_key: 'default',
      });
      expect(chat.status).toBe(200);
      expect(chat.body.refusal_reason).toBe('no_relevant_context');
      expect(
        (await as(who.otherAdmin, 'POST', '/api/kb/chat', { question: `What about ${EMAIL}?` }))
          .status,
      ).toBe(200);

      const [row] = await db.query(
        `SELECT id, question, pii_hits, project_key FROM kb_chat_logs WHERE tenant_id = 'default' ORDER BY id DESC LIMIT 1`,
      );
      logId = String(row.id);
      expect(row.question).toMatch(
        /^Can \[PII:email:[0-9a-f-]{36}\] pay the invoice with card \[REDACTED:credit_card\]\?$/,
      );
      expect(row.pii_hits).toEqual({ email: 1, credit_card: 1 });
      expect(row.project_key).toBe('default');
      const dump = JSON.stringify(
        await db.query(
          `SELECT l.question, l.answer, t.ciphertext FROM kb_chat_logs l LEFT JOIN kb_pii_tokens t ON t.chat_log_id = l.id`,
        ),
      );
      expect(dump).not.toContain(EMAIL);
      expect(dump).not.toContain(CARD);
      // The other tenant masks (its default): no token stored for its row.
      const [otherRow] = await db.query(
        `SELECT l.question, (SELECT count(*)::int FROM kb_pii_tokens t WHERE t.chat_log_id = l.id) AS tokens FROM kb_chat_logs l WHERE tenant_id = 'other'`,
      );
      expect(otherRow).toEqual({ question: 'What about [REDACTED:email]?', tokens: 0 });
    });

    it('lists with filters and pages, shows one, and hides other tenants', async () => {
      await as(who.editor, 'POST', '/api/kb/chat', {
        question: 'Where is the runbook for backups?',
      });
      const all = await as(who.admin, 'GET', '/api/admin/logs/chat?per_page=1');
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ current_page: 1, per_page: 1, total: 2, last_page: 2 });
      expect(all.body.data[0]).toMatchObject({
        question: 'Where is the runbook for backups?',
        user: { id: who.editor.id, email: 'editor@insight.test' },
        refused: true,
      });

      const byUser = await as(who.admin, 'GET', `/api/admin/logs/chat?user=${who.viewer.id}`);
      expect(byUser.body.data.map((r: { id: string }) => r.id)).toEqual([logId]);
      expect(byUser.body.data[0]).toMatchObject({
        tokenized_values: 1,
        pii_hits: { email: 1, credit_card: 1 },
      });
      expect((await as(who.admin, 'GET', '/api/admin/logs/chat?refused=false')).body.total).toBe(0);
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/chat?refused=true&search=runbook')).body.total,
      ).toBe(1);
      expect(
        (
          await as(
            who.admin,
            'GET',
            `/api/admin/logs/chat?from=${new Date(Date.now() + 60_000).toISOString()}`,
          )
        ).body.total,
      ).toBe(0);
      expect(
        (
          await as(
            who.admin,
            'GET',
            `/api/admin/logs/chat?to=${new Date(Date.now() + 60_000).toISOString()}`,
          )
        ).body.total,
      ).toBe(2);

      const bad = await as(
        who.admin,
        'GET',
        '/api/admin/logs/chat?refused=maybe&from=yesterday&user=x&per_page=500',
      );
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['from', 'per_page', 'refused', 'user']);

      const one = await as(who.admin, 'GET', `/api/admin/logs/chat/${logId}`);
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({
        id: logId,
        refusal_reason: 'no_relevant_context',
        citations: [],
      });
      expect((await as(who.otherAdmin, 'GET', `/api/admin/logs/chat/${logId}`)).status).toBe(404);
      expect((await as(who.otherAdmin, 'GET', '/api/admin/logs/chat')).body.total).toBe(1);
      expect((await as(who.admin, 'GET', '/api/admin/logs/chat/not-an-id')).status).toBe(404);
    });

    it('detokenizes only with the permission the strategy names, and audits it', async () => {
      expect((await as(who.admin, 'POST', `/api/admin/logs/chat/${logId}/detokenize`)).status).toBe(
        403,
      );
      const r = await as(who.superAdmin, 'POST', `/api/admin/logs/chat/${logId}/detokenize`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({
        id: logId,
        question: `Can ${EMAIL} pay the invoice with card [REDACTED:credit_card]?`,
        answer: expect.any(String),
        restored_values: 1,
        unrecoverable: 0,
      });
      expect(
        (await as(who.otherAdmin, 'POST', `/api/admin/logs/chat/${logId}/detokenize`)).status,
      ).toBe(403);

      // The tenant names another permission (by a dpo, who holds both): admins hold logs.view, so now they may.
      const widened = await as(who.dpo, 'PUT', '/api/admin/pii/strategy', {
        actions: {},
        detokenize_permission: 'logs.view',
      });
      expect(widened.status).toBe(200);
      expect((await as(who.admin, 'POST', `/api/admin/logs/chat/${logId}/detokenize`)).status).toBe(
        200,
      );
      const restored = await as(who.dpo, 'PUT', '/api/admin/pii/strategy', {
        actions: {},
        detokenize_permission: 'pii.detokenize',
      });
      expect(restored.status).toBe(200);
      expect((await as(who.admin, 'POST', `/api/admin/logs/chat/${logId}/detokenize`)).status).toBe(
        403,
      );
      expect(
        (await as(who.superAdmin, 'POST', '/api/admin/logs/chat/987654/detokenize')).status,
      ).toBe(404);

      const activity = await as(
        who.admin,
        'GET',
        `/api/admin/logs/activity?actor=${who.superAdmin.id}&search=detokenize`,
      );
      expect(activity.body.data[0]).toMatchObject({
        actor: { kind: 'token', id: who.superAdmin.id, email: 'super@insight.test' },
        method: 'POST',
        route: '/api/admin/logs/chat/:id/detokenize',
        status: 404,
        outcome: 'failure',
      });
      expect(activity.body.data[1]).toMatchObject({
        route: '/api/admin/logs/chat/:id/detokenize',
        status: 200,
        outcome: 'success',
        target_id: logId,
      });
    });
    it('lets only a holder of the detokenize permission in force rename it, and only to one it holds: an admin cannot grant itself detokenize', async () => {
      const strategy = async () => (await as(who.dpo, 'GET', '/api/admin/pii/strategy')).body.data;
      const before = await strategy();
      expect(before.detokenize_permission).toBe('pii.detokenize');
      // The attack: an admin (no pii.detokenize) names a permission it holds, then detokenizes.
      for (const permission of ['users.manage', 'logs.view']) {
        const escalate = await as(who.admin, 'PUT', '/api/admin/pii/strategy', {
          actions: { email: 'mask' },
          detokenize_permission: permission,
        });
        expect(escalate.status).toBe(403);
        expect(escalate.body).toEqual({ message: expect.stringContaining('pii.detokenize') });
        expect(escalate.body.message).toMatch(/detokenize permission/);
      }
      // Nothing stored, not even the actions sent along.
      expect(await strategy()).toEqual(before);
      expect((await as(who.admin, 'POST', `/api/admin/logs/chat/${logId}/detokenize`)).status).toBe(
        403,
      );
      // A dpo holds pii.detokenize but not kb.edit.any: it may not hand detokenize to a permission it lacks.
      const toForeign = await as(who.dpo, 'PUT', '/api/admin/pii/strategy', {
        actions: {},
        detokenize_permission: 'kb.edit.any',
      });
      expect(toForeign.status).toBe(403);
      expect(toForeign.body.message).toContain('kb.edit.any');
      expect((await strategy()).detokenize_permission).toBe('pii.detokenize');
      // Sending back the permission in force is no change: an admin still edits the actions.
      const same = await as(who.admin, 'PUT', '/api/admin/pii/strategy', {
        actions: { ipv4: 'keep' },
        detokenize_permission: 'pii.detokenize',
      });
      expect(same.status).toBe(200);
      expect(same.body.data).toMatchObject({
        detokenize_permission: 'pii.detokenize',
        actions: { ipv4: 'keep' },
      });
      // A super-admin holds every tenant permission: it may change it, and change it back.
      for (const permission of ['users.manage', 'pii.detokenize']) {
        const r = await as(who.superAdmin, 'PUT', '/api/admin/pii/strategy', {
          actions: {},
          detokenize_permission: permission,
        });
        expect(r.status).toBe(200);
        expect(r.body.data.detokenize_permission).toBe(permission);
      }
      // Another tenant's admin changes only its own tenant's strategy.
      expect(
        (
          await as(who.otherAdmin, 'PUT', '/api/admin/pii/strategy', {
            actions: {},
            detokenize_permission: 'users.manage',
          })
        ).status,
      ).toBe(403);
    });
  });

  describe('activity log', () => {
    it('records admin mutations, successful or failed, without bodies, per tenant', async () => {
      const before = (await as(who.admin, 'GET', '/api/admin/logs/activity')).body.total as number;
      const created = await as(who.admin, 'POST', '/api/admin/users', {
        name: 'New Person',
        email: 'new.person@insight.test',
        password: 'a very secret password',
      });
      expect(created.status).toBe(201);
      const failed = await as(who.admin, 'POST', '/api/admin/users', { name: '', email: 'nope' });
      expect(failed.status).toBe(422);
      expect((await as(who.admin, 'GET', '/api/admin/users')).status).toBe(200);

      const r = await as(who.admin, 'GET', '/api/admin/logs/activity?per_page=2');
      expect(r.body.total).toBe(before + 2);
      expect(r.body.data).toEqual([
        expect.objectContaining({
          actor: expect.objectContaining({ id: who.admin.id }),
          method: 'POST',
          route: '/api/admin/users',
          status: 422,
          outcome: 'failure',
          target_id: null,
          request_id: expect.any(String),
        }),
        expect.objectContaining({
          method: 'POST',
          route: '/api/admin/users',
          status: 201,
          outcome: 'success',
          target_id: String(created.body.data.id),
        }),
      ]);
      expect(JSON.stringify(await db.query('SELECT * FROM kb_activity_logs'))).not.toContain(
        'a very secret password',
      );
      expect(
        (
          await as(who.admin, 'GET', '/api/admin/logs/activity?outcome=failure&method=POST')
        ).body.data.every((a: { outcome: string }) => a.outcome === 'failure'),
      ).toBe(true);
      expect(
        (await as(who.otherAdmin, 'GET', '/api/admin/logs/activity')).body.data.some(
          (a: { actor: { id?: string } }) => a.actor.id === who.admin.id,
        ),
      ).toBe(false);
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/activity?outcome=maybe&method=GET')).status,
      ).toBe(422);
    });
  });

  describe('application log', () => {
    it('records a real 5xx (a table gone under a route) with route, status, error class and request id', async () => {
      await db.query('ALTER TABLE kb_compliance_reports RENAME TO kb_compliance_reports_away');
      let failed: Response;
      try {
        failed = await raw(who.admin, '/api/admin/compliance/reports?kind=retention');
      } finally {
        await db.query('ALTER TABLE kb_compliance_reports_away RENAME TO kb_compliance_reports');
      }
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({ message: 'Server error.' });

      const r = await as(who.admin, 'GET', '/api/admin/logs/application?level=error&status=500');
      expect(r.status).toBe(200);
      expect(r.body.data[0]).toMatchObject({
        level: 'error',
        method: 'GET',
        route: '/api/admin/compliance/reports',
        status: 500,
        error_class: 'QueryFailedError',
        request_id: failed.headers.get('x-request-id'),
        user_id: who.admin.id,
      });
      expect((await as(who.otherAdmin, 'GET', '/api/admin/logs/application')).body.total).toBe(0);
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/application?status=404&level=fatal')).status,
      ).toBe(422);
    });
  });

  describe('canonical audit', () => {
    it("lists the tenant's promotion audit with filters", async () => {
      await db.query(
        `INSERT INTO kb_promotion_audit (tenant_id, action, actor_user_id, actor_label, detail) VALUES
          ('default', 'requested', $1, 'editor@insight.test', '{"slug":"a"}'), ('default', 'rejected', $2, 'admin@insight.test', '{}'), ('other', 'requested', NULL, 'x', '{}')`,
        [who.editor.id, who.admin.id],
      );
      const all = await as(who.admin, 'GET', '/api/admin/logs/canonical-audit');
      expect(all.body.total).toBe(2);
      expect(all.body.data[0]).toMatchObject({
        action: 'rejected',
        actor_user_id: who.admin.id,
        approval: null,
      });
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/canonical-audit?action=requested')).body.data,
      ).toEqual([
        expect.objectContaining({ actor_label: 'editor@insight.test', detail: { slug: 'a' } }),
      ]);
      expect(
        (await as(who.admin, 'GET', `/api/admin/logs/canonical-audit?actor=${who.editor.id}`)).body
          .total,
      ).toBe(1);
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/canonical-audit?action=deleted')).status,
      ).toBe(422);
      expect((await as(who.otherAdmin, 'GET', '/api/admin/logs/canonical-audit')).body.total).toBe(
        1,
      );
    });
  });

  describe('compliance reports', () => {
    it('generates a data inventory with personal data per table and PII hits in chat logs', async () => {
      const r = await as(who.admin, 'POST', '/api/admin/compliance/reports', {
        kind: 'data-inventory',
      });
      expect(r.status).toBe(201);
      expect(r.body.data).toMatchObject({
        kind: 'data-inventory',
        created_by: who.admin.id,
        row_count: expect.any(Number),
      });
      const report = (await as(who.admin, 'GET', `/api/admin/compliance/reports/${r.body.data.id}`))
        .body.data;
      expect(report.content.rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            section: 'table',
            table: 'kb_users',
            column: 'email',
            category: 'contact',
            rows_with_value: 6,
          }),
          expect.objectContaining({
            section: 'table',
            table: 'kb_chat_logs',
            column: 'question',
            rows_with_value: 2,
          }),
          expect.objectContaining({
            section: 'chat_log_pii',
            detector: 'email',
            hits: 1,
            logs_with_hits: 1,
          }),
          expect.objectContaining({ section: 'chat_log_pii', detector: 'credit_card', hits: 1 }),
        ]),
      );
      expect(report.content.summary).toMatchObject({
        chat_log_pii_hits: 2,
        tokenized_values_stored: 1,
      });
    });

    it('generates an access review with roles, permissions, memberships and token use', async () => {
      await db.query(
        `INSERT INTO kb_memberships (tenant_id, user_id, project_key, role) VALUES ('default', $1, 'default', 'owner')`,
        [who.editor.id],
      );
      // kb-api's auth does not stamp token use yet: set one so the report is seen carrying it.
      await db.query(
        `UPDATE kb_personal_access_tokens SET last_used_at = '2026-01-02T03:04:05Z' WHERE user_id = $1`,
        [who.editor.id],
      );
      const r = await as(who.admin, 'POST', '/api/admin/compliance/reports', {
        kind: 'access-review',
      });
      const rows = (await as(who.admin, 'GET', `/api/admin/compliance/reports/${r.body.data.id}`))
        .body.data.content.rows;
      const editor = rows.find((u: { email: string }) => u.email === 'editor@insight.test');
      expect(editor).toMatchObject({
        roles: ['editor'],
        memberships: ['default:owner'],
        active_tokens: 1,
        token_last_used_at: '2026-01-02T03:04:05.000Z',
      });
      expect(editor.permissions).toEqual(expect.arrayContaining(['kb.edit.any', 'insights.view']));
      expect(editor.tokens[0]).toMatchObject({
        name: 'desktop-demo',
        last_used_at: '2026-01-02T03:04:05+00:00',
        expires_at: expect.any(String),
      });
      expect(rows.some((u: { email: string }) => u.email === 'admin@other.test')).toBe(false);
    });

    it('generates a retention report, lists, downloads as JSON and CSV, deletes, and validates', async () => {
      const r = await as(who.admin, 'POST', '/api/admin/compliance/reports', {
        kind: 'retention',
        retention_days: { kb_chat_logs: 0 },
      });
      expect(r.status).toBe(201);
      const report = (await as(who.admin, 'GET', `/api/admin/compliance/reports/${r.body.data.id}`))
        .body.data;
      expect(report.params).toEqual({ retention_days: { kb_chat_logs: 0 } });
      expect(report.content.rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            table: 'kb_chat_logs',
            retention_days: 0,
            rows: 2,
            would_remove: 2,
            age_0_30_days: 2,
          }),
          expect.objectContaining({
            table: 'kb_application_logs',
            retention_days: 90,
            would_remove: 0,
          }),
        ]),
      );

      // One more came from the gate test.
      const list = await as(
        who.admin,
        'GET',
        '/api/admin/compliance/reports?kind=retention&per_page=1',
      );
      expect(list.body).toMatchObject({
        total: 2,
        last_page: 2,
        data: [expect.objectContaining({ id: r.body.data.id })],
      });
      expect(list.body.data[0].content).toBeUndefined();
      expect((await as(who.admin, 'GET', '/api/admin/compliance/reports')).body.total).toBe(4);

      const csv = await raw(
        who.admin,
        `/api/admin/compliance/reports/${r.body.data.id}/download?format=csv`,
      );
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.headers.get('content-disposition')).toBe(
        `attachment; filename="compliance-retention-${r.body.data.id}.csv"`,
      );
      const lines = (await csv.text()).trim().split('\r\n');
      expect(lines[0]).toBe(
        'table,aged_by,retention_days,rows,oldest,newest,age_0_30_days,age_31_90_days,age_91_365_days,age_over_365_days,would_remove',
      );
      expect(lines.find((l) => l.startsWith('kb_chat_logs,'))).toMatch(
        /^kb_chat_logs,created_at,0,2,/,
      );
      const json = await raw(who.admin, `/api/admin/compliance/reports/${r.body.data.id}/download`);
      expect(json.headers.get('content-disposition')).toBe(
        `attachment; filename="compliance-retention-${r.body.data.id}.json"`,
      );
      expect(((await json.json()) as { content: { rows: unknown[] } }).content.rows.length).toBe(
        report.content.rows.length,
      );

      expect(
        (await as(who.otherAdmin, 'GET', `/api/admin/compliance/reports/${r.body.data.id}`)).status,
      ).toBe(404);
      expect(
        (await as(who.otherAdmin, 'DELETE', `/api/admin/compliance/reports/${r.body.data.id}`))
          .status,
      ).toBe(404);
      expect(
        (await as(who.admin, 'DELETE', `/api/admin/compliance/reports/${r.body.data.id}`)).status,
      ).toBe(204);
      expect(
        (await as(who.admin, 'GET', `/api/admin/compliance/reports/${r.body.data.id}`)).status,
      ).toBe(404);

      const badKind = await as(who.admin, 'POST', '/api/admin/compliance/reports', {
        kind: 'everything',
      });
      expect([badKind.status, Object.keys(badKind.body.errors)]).toEqual([422, ['kind']]);
      const badDays = await as(who.admin, 'POST', '/api/admin/compliance/reports', {
        kind: 'retention',
        retention_days: { kb_secrets: 1, kb_chat_logs: -1 },
      });
      expect([badDays.status, Object.keys(badDays.body.errors).sort()]).toEqual([
        422,
        ['retention_days.kb_chat_logs', 'retention_days.kb_secrets'],
      ]);
      const misplaced = await as(who.admin, 'POST', '/api/admin/compliance/reports', {
        kind: 'access-review',
        retention_days: {},
      });
      expect([misplaced.status, Object.keys(misplaced.body.errors)]).toEqual([
        422,
        ['retention_days'],
      ]);
      expect(
        (await as(who.admin, 'GET', '/api/admin/compliance/reports/1/download?format=xml')).status,
      ).toBe(422);
    });
  });
});
