import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorker } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith, sessionOf } from './admin-support';
import { RESOURCE_FACTORIES, ResourcesOfA, RouteParams, seedTenantA } from './cross-tenant-resources';
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
const KINDS = [...new Set(OPERATIONS.map((o) => kindOf(o.path)))].sort();

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
  const storage = mkdtempSync(join(tmpdir(), 'kb-cross-tenant-'));
  const connectorRoot = mkdtempSync(join(tmpdir(), 'kb-cross-tenant-drive-'));
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: { close(): Promise<void> };
  let a: { super: Caller; viewer: Caller };
  let resources: ResourcesOfA;
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

  beforeAll(async () => {
    // Every optional area on, so every documented route is served; the originals in a folder of this
    // file (a failed job of A needs one moved away); an empty folder a filesystem connector may read.
    process.env.KB_STORAGE_PATH_OVERRIDE = storage;
    ({ svc, db, stop } = await startKb({ KB_PROMOTION_ENABLED: 'true', KB_ANONYMOUS_CHAT_ENABLED: 'true', KB_CONNECTOR_FS_ROOTS: connectorRoot }));
    delete process.env.KB_STORAGE_PATH_OVERRIDE;
    a = {
      super: await callerWith(svc.url, db, { email: 'super@acme.test', tenant: 'acme', roles: ['super-admin'] }),
      viewer: await callerWith(svc.url, db, { email: 'viewer@acme.test', tenant: 'acme', roles: ['viewer'] }),
    };
    await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('acme', 'default', 'Default') ON CONFLICT DO NOTHING`);
    const tenantA = { tenant: 'acme', url: svc.url, db, super: a.super, viewer: a.viewer, storage, connectorRoot };
    ids.document = await seedTenantA(tenantA, { source_path: 'secret.md', content: '# Secret\n\nAcme launch codes.' });
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    const key = await call(a.super, 'POST', '/api/admin/widget-keys', {
      label: 'site',
      project_key: 'default',
      allowed_origins: ['https://acme.test'],
    });
    resources = new ResourcesOfA(
      { ...tenantA, widgetKey: { id: String(key.body.data.id), publicKey: key.body.public_key, origin: 'https://acme.test' } },
      ids.document,
    );

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
  }, 120_000);
  afterAll(async () => {
    await worker?.close();
    await stop();
    await rm(storage, { recursive: true, force: true });
    await rm(connectorRoot, { recursive: true, force: true });
  });

  it('has a factory of a real resource of A for every resource kind the document addresses by id', () => {
    // A new kind fails here until it gets a factory in cross-tenant-resources.ts; a factory of a
    // kind the document no longer has is stale.
    expect(KINDS.filter((k) => !RESOURCE_FACTORIES[k])).toEqual([]);
    expect(Object.keys(RESOURCE_FACTORIES).filter((k) => !KINDS.includes(k))).toEqual([]);
  });

  it("answers 401/403/404 to tenant B's every credential, with and without A's X-Tenant-Id, and A's rows do not change", async () => {
    const params: Record<string, RouteParams[]> = {};
    for (const kind of KINDS) {
      if (!RESOURCE_FACTORIES[kind]) throw new Error(`no factory of ${kind}`);
      params[kind] = [await RESOURCE_FACTORIES[kind](resources)].flat();
    }
    await resources.settled();
    const before = await snapshotOfA();
    const attempts = OPERATIONS.flatMap((op) =>
      params[kindOf(op.path)].map((values) => {
        const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          if (values[name] === undefined) throw new Error(`the factory of ${kindOf(op.path)} gives no {${name}} for ${op.method} ${op.path}`);
          return encodeURIComponent(values[name]);
        });
        const body =
          op.method === 'GET' || op.method === 'DELETE'
            ? undefined
            : { ...((sample(op.requestBody?.content?.['application/json']?.schema) as Json) ?? {}), ...EXTRA_BODY[kindOf(op.path)]?.(values) };
        return { op, path, body };
      }),
    );
    const leaks: string[] = [];
    // One sequence of requests per credential, the credentials side by side: a cookie session is
    // used by one request at a time, and the whole run stays short on a small machine.
    await Promise.all(
      attackers.map(async (who) => {
        const client = who.session ?? new KbClient(svc.url);
        for (const { op, path, body } of attempts) {
          for (const tenant of [undefined, 'acme']) {
            const headers = { ...who.headers, ...(tenant ? { 'x-tenant-id': tenant } : {}) };
            const r = await client.call(op.method, path, { body, headers });
            // A role or the built-in MCP server is named, not id-addressed: B may reshape its own
            // tenant's (the snapshot shows A's unchanged); with A's X-Tenant-Id it is refused like the rest.
            const ownNamed = NAMED_PER_TENANT.has(kindOf(op.path)) && !tenant && r.status < 300;
            if (![401, 403, 404].includes(r.status) && !ownNamed)
              leaks.push(`${who.name}${tenant ? ' +X-Tenant-Id' : ''}: ${op.method} ${path} -> ${r.status}`);
          }
        }
      }),
    );
    expect(leaks).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
    // A still reads its document back unchanged.
    const preview = await call(a.viewer, 'GET', `/api/kb/documents/${ids.document}/preview`);
    expect(preview).toMatchObject({ status: 200, body: { title: 'Secret', content: expect.stringContaining('launch codes') } });
  }, 120_000);

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

  it('two users submitting the same new path at once: one of them owns it, and the stored original is theirs', async () => {
    const rivals = [a.viewer, await callerWith(svc.url, db, { email: 'rival@acme.test', tenant: 'acme', roles: ['viewer'] })];
    const contentOf = (who: Caller, sourcePath: string) => `# ${sourcePath}\n\nSubmitted by ${who.email}.`;
    // Several paths at once, so the two submissions of a path overlap in every way they can.
    const paths = Array.from({ length: 12 }, (_, i) => `race/doc-${i}.md`);
    const answers = await Promise.all(
      paths.map((sourcePath) =>
        Promise.all(rivals.map((who) => call(who, 'POST', '/api/kb/ingest', { documents: [{ source_path: sourcePath, content: contentOf(who, sourcePath) }] }))),
      ),
    );
    for (const [i, sourcePath] of paths.entries()) {
      const [row] = await db.query(
        `SELECT created_by::text AS by, storage_key, pending_hash FROM kb_documents WHERE tenant_id = 'acme' AND project_key = 'default' AND source_path = $1`,
        [sourcePath],
      );
      const owner = rivals.findIndex((who) => who.id === row.by);
      expect([sourcePath, owner >= 0]).toEqual([sourcePath, true]);
      const [won, lost] = [answers[i][owner], answers[i][1 - owner]];
      expect([sourcePath, won.status, won.body.documents[0].status]).toEqual([sourcePath, 202, 'queued']);
      // The loser is refused up front (403) or, when both passed that check together, its entry failed.
      const loss = lost.status === 403 ? [403, lost.body.error] : [lost.status, lost.body.documents[0].status];
      expect([[403, 'document_forbidden'], [207, 'failed']]).toContainEqual(loss);
      const stored = await readFile(join(storage, row.storage_key));
      expect([sourcePath, stored.toString('utf8')]).toEqual([sourcePath, contentOf(rivals[owner], sourcePath)]);
      expect(createHash('sha256').update(stored).digest('hex')).toBe(row.pending_hash);
    }
  });
});

/** Body fields of a kind's routes beyond the schema's sample, from the resource's values. */
const EXTRA_BODY: Record<string, (values: RouteParams) => Json> = {
  // Optional in the document (the approval token may come in the query instead).
  '/api/kb/promotion': () => ({ token: 'not-the-token' }),
  // Another concept of A: merging a concept into itself is refused before either is looked up.
  '/api/admin/kb/concepts': (values) => ({ into: Number(values.into) }),
};

/** Kinds addressed by a name every tenant has (so B finds its own). */
const NAMED_PER_TENANT = new Set(['/api/admin/roles', '/api/admin/mcp-servers']);
