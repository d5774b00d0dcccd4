import { Body, Controller, Get, Module, NotFoundException, Param, Post } from '@nestjs/common';
import { startServiceForTest } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Can, GlobalRoute } from '../src/app/auth/gates';
import { callerWith, Caller } from './admin-support';
import { KbClient } from './kb-fixtures';
import { kbUnderTest } from './kb-test-env';

/** The most sensitive tenant tables: what a forgotten tenant filter would leak. */
const PROBED = ['kb_documents', 'kb_conversations', 'kb_conversation_messages', 'kb_chat_logs'];

/**
 * Repository code gone wrong on purpose: reads and writes with no tenant in them, on the request
 * path of a signed-in tenant. Row-level security alone decides what they touch.
 */
@Controller('api/kb/rls-probe')
class UnscopedProbeController {
  constructor(private readonly db: DataSource) {}

  @Get(':table')
  async read(@Param('table') table: string) {
    if (!PROBED.includes(table)) throw new NotFoundException();
    return this.db.query(`SELECT tenant_id, id::text AS id FROM ${table} ORDER BY id`);
  }

  @Post('plant')
  async plant(@Body() body: { tenant_id: string; user_id: string }) {
    try {
      await this.db.transaction((tx) => tx.query(`INSERT INTO kb_conversations (tenant_id, user_id, title) VALUES ($1, $2, 'planted')`, [body.tenant_id, body.user_id]));
      return { planted: true };
    } catch (e) {
      return { planted: false, error: (e as Error).message };
    }
  }
}

/** The same unscoped read on a platform-wide route: it keeps reading across tenants. */
@Controller('api/system-admin/rls-probe')
@GlobalRoute()
class PlatformProbeController {
  constructor(private readonly db: DataSource) {}

  @Get('documents')
  @Can('platform.admin')
  documents() {
    return this.db.query(`SELECT tenant_id, id::text AS id FROM kb_documents ORDER BY id`);
  }
}

describe('kb-api tenant row-level security (a query that forgets its tenant)', () => {
  let url: string;
  let db: DataSource;
  let stop: () => Promise<void>;
  let alice: Caller;
  let bob: Caller;
  let operator: Caller;
  const rows: Record<string, Record<string, string[]>> = { acme: {}, globex: {} };
  const call = (who: Caller, method: string, path: string, body?: unknown) => new KbClient(url).call(method, path, { token: who.token, body });

  /** A document, conversation, message and chat log of `tenant`, written as the owner would. */
  async function seed(tenant: string, userId: string): Promise<void> {
    const [doc] = await db.query(
      `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, status)
       VALUES ($1, 'default', $2, $2, $2, 'text/markdown', 'upload', $2, 'indexed') RETURNING id::text AS id`,
      [tenant, `${tenant}-secrets.md`],
    );
    const [conversation] = await db.query(`INSERT INTO kb_conversations (tenant_id, user_id, title) VALUES ($1, $2, $3) RETURNING id::text AS id`, [tenant, userId, `${tenant} plans`]);
    const [message] = await db.query(
      `INSERT INTO kb_conversation_messages (tenant_id, conversation_id, role, content) VALUES ($1, $2, 'user', $3) RETURNING id::text AS id`,
      [tenant, conversation.id, `${tenant} question`],
    );
    const [log] = await db.query(
      `INSERT INTO kb_chat_logs (tenant_id, user_id, question, answer, citations, confidence, latency_ms) VALUES ($1, $2, 'q', 'a', '[]', 1, 1) RETURNING id::text AS id`,
      [tenant, userId],
    );
    rows[tenant] = { kb_documents: [doc.id], kb_conversations: [conversation.id], kb_conversation_messages: [message.id], kb_chat_logs: [log.id] };
  }

  beforeAll(async () => {
    const svc = await startServiceForTest({
      ...kbUnderTest,
      loadAppModule: async () => {
        const AppModule = await kbUnderTest.loadAppModule();
        @Module({ imports: [AppModule], controllers: [UnscopedProbeController, PlatformProbeController] })
        class ProbedAppModule {}
        return ProbedAppModule;
      },
    });
    url = svc.url;
    db = await new DataSource({ type: 'postgres', url: svc.db!.url }).initialize();
    stop = async () => {
      await db.destroy();
      await svc.stop();
    };
    alice = await callerWith(url, db, { email: 'alice@acme.test', tenant: 'acme', roles: ['editor'] });
    bob = await callerWith(url, db, { email: 'bob@globex.test', tenant: 'globex', roles: ['editor'] });
    operator = await callerWith(url, db, { email: 'operator@platform.test', tenant: 'default', roles: ['viewer'], platformAdmin: true });
    await seed('acme', alice.id);
    await seed('globex', bob.id);
  }, 60_000);

  afterAll(async () => {
    await stop?.();
  });

  it.each(PROBED)('an unscoped read of %s as tenant globex sees none of acme’s rows, and acme sees its own', async (table) => {
    const asBob = await call(bob, 'GET', `/api/kb/rls-probe/${table}`);
    expect(asBob.status).toBe(200);
    expect(asBob.body).toEqual(rows.globex[table].map((id) => ({ tenant_id: 'globex', id })));

    const asAlice = await call(alice, 'GET', `/api/kb/rls-probe/${table}`);
    expect(asAlice.status).toBe(200);
    expect(asAlice.body).toEqual(rows.acme[table].map((id) => ({ tenant_id: 'acme', id })));

    // Control: the rows are there, the owner's connection sees both tenants.
    const all = await db.query(`SELECT tenant_id FROM ${table} WHERE id = ANY($1::bigint[])`, [[...rows.acme[table], ...rows.globex[table]]]);
    expect(all.map((r: { tenant_id: string }) => r.tenant_id).sort()).toEqual(['acme', 'globex']);
  });

  it('refuses a write from tenant globex’s request into tenant acme, and nothing lands', async () => {
    const r = await call(bob, 'POST', '/api/kb/rls-probe/plant', { tenant_id: 'acme', user_id: alice.id });
    expect(r.body).toEqual({ planted: false, error: expect.stringMatching(/row-level security/) });
    expect(await db.query(`SELECT id FROM kb_conversations WHERE title = 'planted'`)).toEqual([]);

    const own = await call(bob, 'POST', '/api/kb/rls-probe/plant', { tenant_id: 'globex', user_id: bob.id });
    expect(own.body).toEqual({ planted: true });
    await db.query(`DELETE FROM kb_conversations WHERE title = 'planted'`);
  });

  it('leaves the real routes working for the tenant’s own rows', async () => {
    const conversations = await call(alice, 'GET', '/api/conversations');
    expect(conversations.status).toBe(200);
    expect(conversations.body).toEqual([expect.objectContaining({ id: Number(rows.acme.kb_conversations[0]), title: 'acme plans' })]);
    const acmeDoc = await call(alice, 'GET', `/api/kb/documents/${rows.acme.kb_documents[0]}/preview`);
    expect(acmeDoc.status).toBe(200);
    expect(acmeDoc.body).toMatchObject({ source_path: 'acme-secrets.md' });
    expect((await call(bob, 'GET', `/api/kb/documents/${rows.acme.kb_documents[0]}/preview`)).status).toBe(404);
  });

  it('keeps platform-wide routes reading across tenants', async () => {
    const r = await call(operator, 'GET', '/api/system-admin/rls-probe/documents');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { tenant_id: 'acme', id: rows.acme.kb_documents[0] },
      { tenant_id: 'globex', id: rows.globex.kb_documents[0] },
    ]);
  });

  it('puts every tenant table under the policy except the documented exemptions, for a role that cannot bypass it', async () => {
    const unprotected = await db.query(
      `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relrowsecurity
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
        ORDER BY 1`,
    );
    // docs/security.md, "Defence in depth", says why each of these is exempt. The guardrails_*
    // tables are the guardrails library's store (its own database in a deployment, read across
    // tenants by the platform-level guardrails admin API); the test service keeps it in kb's.
    expect(unprotected.map((r: { table: string }) => r.table)).toEqual([
      'guardrails_approvals',
      'guardrails_injection_audit',
      'kb_chunks',
      'kb_memberships',
      'kb_personal_access_tokens',
      'kb_sessions',
      'kb_tenant_role_grants',
      'kb_user_permissions',
      'kb_user_roles',
      'kb_users',
    ]);
    const policies = await db.query(`SELECT count(*)::int AS n FROM pg_policies WHERE policyname = 'kb_tenant_isolation' AND qual NOT LIKE '%current_setting(''app.tenant_id''::text, true)%'`);
    expect(policies).toEqual([{ n: 0 }]);
    const [role] = await db.query(`SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = 'kb_tenant'`);
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
    const owned = await db.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = current_schema() AND tableowner = 'kb_tenant'`);
    expect(owned).toEqual([{ n: 0 }]);
  });
});
