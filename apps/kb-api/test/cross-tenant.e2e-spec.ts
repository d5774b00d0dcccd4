import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith, sessionOf } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Operation {
  method: string;
  path: string;
  requestBody?: { content?: { 'application/json'?: { schema?: Json } } };
}

/** Every id-addressed operation of the committed document: a new route is tried without new code here. */
const DOC = JSON.parse(readFileSync(join(__dirname, '../../../docs/api/kb-api.openapi.json'), 'utf8')) as Json;
const OPERATIONS: Operation[] = Object.entries(DOC.paths as Record<string, Json>)
  .filter(([path]) => path.includes('{'))
  .flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => ({ method: m.toUpperCase(), path, ...(op as Json) })),
  );

/** A resource kind: the part of the path before its first parameter. */
const kindOf = (path: string) => path.slice(0, path.indexOf('/{'));

/** A body that passes validation, from the operation's schema, so the refusal is about the resource. */
function sample(schema: Json | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return undefined;
  if (schema.$ref) return sample(DOC.components.schemas[String(schema.$ref).split('/').pop()!], depth + 1);
  if (schema.oneOf) return sample(schema.oneOf[0], depth + 1);
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'object': {
      const out: Json = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key], depth + 1);
      return out;
    }
    case 'array':
      // Distinct items, for arrays that must hold unique values.
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) => {
        const item = sample(schema.items, depth + 1);
        return typeof item === 'string' ? `${item}${i}` : item;
      });
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

describe('kb-api cross-tenant isolation (every id-addressed route)', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: { close(): Promise<void> };
  let a: { super: Caller; viewer: Caller };
  const ids: Record<string, string> = {};
  /** Tenant B's credentials of every kind. */
  const attackers: Array<{ name: string; headers: Record<string, string>; session?: KbClient }> = [];

  const call = (who: Caller, method: string, path: string, body?: unknown) =>
    new KbClient(svc.url).call(method, path, { token: who.token, body });

  /** Every row of tenant A in every table with a tenant_id column: "unchanged" is checked on rows, not answers. */
  const snapshotOfA = async () => {
    const tables: Array<{ table_name: string }> = await db.query(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY table_name`,
    );
    const out: Record<string, unknown[]> = {};
    for (const { table_name } of tables)
      out[table_name] = await db.query(`SELECT * FROM ${table_name} WHERE tenant_id = 'acme' ORDER BY 1`);
    out['kb_tenants'] = await db.query(`SELECT * FROM kb_tenants WHERE id = 'acme'`);
    return JSON.parse(JSON.stringify(out));
  };

  /** Tenant A's resource of each kind, created through the API (or its id when the kind is named). */
  const factories: Record<string, () => Promise<string>> = {
    '/api/admin/users': async () => a.viewer.id,
    '/api/admin/memberships': async () =>
      String((await call(a.super, 'POST', `/api/admin/users/${a.viewer.id}/memberships`, { project_key: 'default' })).body.data.id),
    '/api/admin/roles': async () => 'viewer',
    '/api/system-admin/tenants': async () => 'acme',
    '/api/kb/documents': async () => ids.document,
    '/api/admin/kb/documents': async () => ids.document,
    '/api/conversations': async () => String((await call(a.viewer, 'POST', '/api/conversations', {})).body.id),
    '/api/chat-filter-presets': async () =>
      String((await call(a.viewer, 'POST', '/api/chat-filter-presets', { name: 'mine', filters: {} })).body.data.id),
    '/api/admin/widget-keys': async () => ids.widgetKey,
    '/api/admin/mcp/tokens': async () =>
      String((await call(a.super, 'POST', '/api/admin/mcp/tokens', { label: 'a-desk' })).body.data.id),
  };

  beforeAll(async () => {
    // Every optional area on, so every documented route is served.
    ({ svc, db, stop } = await startKb({ KB_PROMOTION_ENABLED: 'true', KB_ANONYMOUS_CHAT_ENABLED: 'true' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    a = {
      super: await callerWith(svc.url, db, { email: 'super@acme.test', tenant: 'acme', roles: ['super-admin'] }),
      viewer: await callerWith(svc.url, db, { email: 'viewer@acme.test', tenant: 'acme', roles: ['viewer'] }),
    };
    await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('acme', 'default', 'Default') ON CONFLICT DO NOTHING`);
    const ingested = await call(a.viewer, 'POST', '/api/kb/ingest', {
      documents: [{ source_path: 'secret.md', content: '# Secret\n\nAcme launch codes.' }],
    });
    ids.document = String(ingested.body.documents[0].document_id);
    for (let i = 0; i < 300; i++) {
      const [row] = await db.query('SELECT status FROM kb_documents WHERE id = $1', [ids.document]);
      if (row.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const key = await call(a.super, 'POST', '/api/admin/widget-keys', {
      label: 'site',
      project_key: 'default',
      allowed_origins: ['https://acme.test'],
    });
    ids.widgetKey = String(key.body.data.id);

    const bSuper = await callerWith(svc.url, db, { email: 'super@globex.test', tenant: 'globex', roles: ['super-admin'] });
    const bAdmin = await callerWith(svc.url, db, { email: 'admin@globex.test', tenant: 'globex', roles: ['admin'] });
    const bViewer = await callerWith(svc.url, db, { email: 'viewer@globex.test', tenant: 'globex', roles: ['viewer'] });
    const mcp = await call(bSuper, 'POST', '/api/admin/mcp/tokens', { label: 'b-desk' });
    const bKey = await call(bSuper, 'POST', '/api/admin/widget-keys', {
      label: 'b-site',
      project_key: 'default',
      allowed_origins: ['https://globex.test'],
    });
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    attackers.push(
      { name: 'B super-admin token', headers: bearer(bSuper.token) },
      { name: 'B admin token', headers: bearer(bAdmin.token) },
      { name: 'B viewer token', headers: bearer(bViewer.token) },
      { name: 'B viewer session', headers: {}, session: await sessionOf(svc.url, bViewer) },
      { name: 'B MCP token', headers: bearer(mcp.body.plain_token) },
      { name: 'B widget key', headers: { 'x-widget-key': bKey.body.public_key, origin: 'https://globex.test' } },
    );
  });
  afterAll(async () => {
    await worker?.close();
    await stop();
  });

  it('classifies every resource kind the document addresses by id: a factory, or the tracked list without one', () => {
    const kinds = [...new Set(OPERATIONS.map((o) => kindOf(o.path)))].sort();
    const covered = kinds.filter((k) => factories[k]);
    expect(covered.length).toBeGreaterThan(8);
    // Kinds listed here are tried with an id that exists in no tenant (the 404 path); giving one a
    // factory moves it out of this list.
    expect(kinds.filter((k) => !factories[k])).toEqual(UNFACTORED);
  });

  it("answers 401/403/404 to tenant B's every credential, with and without A's X-Tenant-Id, and A's rows do not change", async () => {
    const resources: Record<string, string> = {};
    for (const kind of Object.keys(factories)) resources[kind] = await factories[kind]();
    const before = await snapshotOfA();
    const leaks: string[] = [];
    for (const op of OPERATIONS) {
      const id = resources[kindOf(op.path)] ?? PLACEHOLDER_IDS[kindOf(op.path)] ?? '999999999';
      const path = op.path.replace(/\{[^}]+\}/g, id);
      const body =
        op.method === 'GET' || op.method === 'DELETE'
          ? undefined
          : { ...((sample(op.requestBody?.content?.['application/json']?.schema) as Json) ?? {}), ...EXTRA_BODY[kindOf(op.path)] };
      for (const who of attackers) {
        for (const tenant of [undefined, 'acme']) {
          const headers = { ...who.headers, ...(tenant ? { 'x-tenant-id': tenant } : {}) };
          const client = who.session ?? new KbClient(svc.url);
          const r = await client.call(op.method, path, { body, headers });
          // A role is named, not id-addressed: B may reshape its own tenant's viewer role (the
          // snapshot shows A's grants unchanged); with A's X-Tenant-Id it is refused like the rest.
          const ownNamed = NAMED_PER_TENANT.has(kindOf(op.path)) && !tenant && r.status < 300;
          if (![401, 403, 404].includes(r.status) && !ownNamed)
            leaks.push(`${who.name}${tenant ? ' +X-Tenant-Id' : ''}: ${op.method} ${path} -> ${r.status}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
    // A still reads its document back unchanged.
    const preview = await call(a.viewer, 'GET', `/api/kb/documents/${ids.document}/preview`);
    expect(preview).toMatchObject({ status: 200, body: { title: 'Secret', content: expect.stringContaining('launch codes') } });
  });

  it("refuses a tenant admin's role escalation and a tenant super-admin on every system-admin route", async () => {
    const escalate = await call(a.super, 'PATCH', '/api/admin/roles/viewer', { permissions: ['kb.read.any', 'tenant.cross-access'] });
    expect(escalate).toMatchObject({ status: 422, body: { errors: { permissions: [expect.stringContaining('tenant.cross-access')] } } });
    expect((await new KbClient(svc.url).call('GET', '/api/auth/me', { token: a.viewer.token, headers: { 'x-tenant-id': 'globex' } })).status).toBe(403);
    for (const op of Object.entries(DOC.paths as Record<string, Json>).filter(([p]) => p.startsWith('/api/system-admin'))) {
      for (const method of Object.keys(op[1])) {
        const r = await call(a.super, method.toUpperCase(), op[0].replace(/\{[^}]+\}/g, 'acme'), method === 'get' ? undefined : {});
        expect([method, op[0], r.status]).toEqual([method, op[0], 403]);
      }
    }
  });

  it("within a tenant, a viewer neither overwrites nor deletes someone else's document; the owner and kb.*.any may", async () => {
    const other = await callerWith(svc.url, db, { email: 'other@acme.test', tenant: 'acme', roles: ['viewer'] });
    const overwrite = await call(other, 'POST', '/api/kb/ingest', { documents: [{ source_path: 'secret.md', content: '# Mine now' }] });
    expect(overwrite).toMatchObject({ status: 403, body: { error: 'document_forbidden' } });
    const remove = await call(other, 'DELETE', '/api/kb/documents', { documents: [{ source_path: 'secret.md' }], force: true });
    expect(remove).toMatchObject({ status: 403, body: { error: 'document_forbidden' } });
    expect(await db.query('SELECT deleted_at, created_by::text AS by FROM kb_documents WHERE id = $1', [ids.document])).toEqual([
      { deleted_at: null, by: a.viewer.id },
    ]);
    // The owner overwrites; an admin (kb.delete.any) deletes.
    expect((await call(a.viewer, 'POST', '/api/kb/ingest', { documents: [{ source_path: 'secret.md', content: '# Secret\n\nv2' }] })).status).toBe(202);
    const admin = await callerWith(svc.url, db, { email: 'admin@acme.test', tenant: 'acme', roles: ['admin'] });
    const deleted = await call(admin, 'DELETE', '/api/kb/documents', { documents: [{ source_path: 'secret.md' }] });
    expect(deleted.body).toMatchObject({ deleted: 1 });
    // A deleted path is free again and becomes the new submitter's.
    expect((await call(other, 'POST', '/api/kb/ingest', { documents: [{ source_path: 'secret.md', content: '# Other' }] })).status).toBe(202);
    expect((await db.query('SELECT created_by::text AS by FROM kb_documents WHERE id = $1', [ids.document]))[0].by).toBe(other.id);
  });
});

/** Ids of the shape a kind's routes accept, for kinds tried without a factory. */
const PLACEHOLDER_IDS: Record<string, string> = { '/api/kb/promotion': '4f9a2c1e-0b7d-4e3a-9c55-1d2e3f4a5b6c' };
/** Fields a kind's routes need that the document leaves optional (the approval token may come in the query instead). */
const EXTRA_BODY: Record<string, Json> = { '/api/kb/promotion': { token: 'not-the-token' } };

/** Kinds addressed by a name every tenant has (so B finds its own). */
const NAMED_PER_TENANT = new Set(['/api/admin/roles']);

/** Resource kinds without a factory yet: tried with an id that exists in no tenant. */
const UNFACTORED: string[] = [
  '/api/admin/compliance/reports',
  '/api/admin/connectors',
  '/api/admin/kb/analyses',
  '/api/admin/kb/collections',
  '/api/admin/kb/concepts',
  '/api/admin/kb/content-gaps',
  '/api/admin/kb/synonyms',
  '/api/admin/kb/tags',
  '/api/admin/kb/wiki-pages',
  '/api/admin/logs/chat',
  '/api/admin/logs/failed-jobs',
  '/api/admin/mcp-servers',
  '/api/admin/tabular-reviews',
  '/api/admin/widget-sessions',
  '/api/admin/workflows',
  '/api/kb/promotion',
  '/api/notifications',
  '/api/widget/sessions',
];
