import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformHttpLogger } from '@platform/observability';
import { startWorker } from '@platform/runtime';
import { rawHttp } from '@platform/testing';
import { callerWith, Caller } from './admin-support';
import { RESOURCE_FACTORIES, ResourcesOfA, RouteParams, seedTenantA } from './cross-tenant-resources';
import { startKb } from './kb-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The text's `~` as a byte no UTF-8 text holds. */
const withInvalidByte = (text: string) => Buffer.from(text).map((b) => (b === 0x7e ? 0xff : b));
const deep = (n: number) => `{"email":${'['.repeat(n)}${']'.repeat(n)}}`;

/** What no route can use is refused at the edge in the knowledge base's error shape, never a 5xx. */
describe('kb-api: edge hygiene', () => {
  let kb: Awaited<ReturnType<typeof startKb>>;
  let admin: Caller;
  /** A platform admin: the system-admin routes let no tenant role in. */
  let platform: Caller;
  /** The widget key's public key, origin and identity secret, for the public widget routes. */
  let widget: { publicKey: string; origin: string; identitySecret: string };
  let worker: { close(): Promise<void> };
  /** A real row of every kind the document addresses by id, so id-addressed routes reach their service code. */
  let resources: ResourcesOfA;
  const storage = mkdtempSync(join(tmpdir(), 'kb-edge-'));
  const connectorRoot = mkdtempSync(join(tmpdir(), 'kb-edge-drive-'));

  beforeAll(async () => {
    // Every optional area on, so every documented route is served; the originals in a folder of this
    // file (one is moved away for a failed job); an empty folder a filesystem connector may read.
    process.env.KB_STORAGE_PATH_OVERRIDE = storage;
    kb = await startKb({ KB_PROMOTION_ENABLED: 'true', KB_ANONYMOUS_CHAT_ENABLED: 'true', KB_CONNECTOR_FS_ROOTS: connectorRoot });
    delete process.env.KB_STORAGE_PATH_OVERRIDE;
    // super-admin: the only role that manages widget keys, and every other route here lets it in.
    admin = await callerWith(kb.svc.url, kb.db, { email: 'admin@edge.test', roles: ['super-admin'] });
    const viewer = await callerWith(kb.svc.url, kb.db, { email: 'viewer@edge.test', roles: ['viewer'] });
    platform = await callerWith(kb.svc.url, kb.db, { email: 'platform@edge.test', roles: ['viewer'], platformAdmin: true });
    const tenant = { tenant: 'default', url: kb.svc.url, db: kb.db, super: admin, viewer, storage, connectorRoot };
    const documentId = await seedTenantA(tenant, { source_path: 'edge-secret.md', content: '# Edge\n\nA document of the viewer.' });
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    const key = await fetch(`${kb.svc.url}/api/admin/widget-keys`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      // User authentication on (the host's user-token route takes its identity secret), and room
      // for every request the walks below send to the public widget routes.
      body: JSON.stringify({ label: 'site', project_key: 'default', allowed_origins: ['https://edge.test'], user_auth_enabled: true, rate_limit: 1000 }),
    });
    const made = (await key.json()) as Json;
    widget = { publicKey: made['public_key'], origin: 'https://edge.test', identitySecret: made['identity_secret'] };
    resources = new ResourcesOfA({ ...tenant, widgetKey: { id: String(made['data']['id']), publicKey: made['public_key'], origin: 'https://edge.test' } }, documentId);
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await kb.stop();
    await rm(storage, { recursive: true, force: true });
    await rm(connectorRoot, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: string | Uint8Array, options: { type?: string; token?: string } = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = options.type ?? 'application/json';
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const r = await fetch(`${kb.svc.url}${path}`, { method, headers, body });
    expect(r.headers.get('content-type')).toContain('application/json');
    return { status: r.status, body: (await r.json()) as Json };
  };

  it.each([
    ['NUL in a JSON string (unauthenticated)', 'POST', '/api/auth/token', '{"email":"a\\u0000@x.test","password":"p"}', 'body.email', 'NUL'],
    ['invalid UTF-8 bytes in a JSON string (unauthenticated)', 'POST', '/api/auth/login', withInvalidByte('{"email":"a~@x.test","password":"p"}'), 'body.email', 'UTF-8'],
    ['JSON nested 5,000 levels on /api/auth/token', 'POST', '/api/auth/token', deep(5000), 'body', 'levels'],
    ['JSON nested 5,000 levels on forgot-password', 'POST', '/api/auth/forgot-password', deep(5000), 'body', 'levels'],
    ['NUL in a query parameter', 'GET', '/api/admin/users?search=a%00', undefined, 'query.search', 'NUL'],
    ['invalid UTF-8 in a path parameter', 'GET', '/api/admin/users/%FF', undefined, 'path.user', 'UTF-8'],
    ['a page of 1e20', 'GET', '/api/admin/users?page=1e20', undefined, 'page', 'greater than'],
    ['a page of 20 digits', 'GET', '/api/admin/users?page=99999999999999999999', undefined, 'page', 'greater than'],
    ['a page of -1', 'GET', '/api/admin/users?page=-1', undefined, 'page', 'at least'],
    ['a page of NaN', 'GET', '/api/admin/users?page=NaN', undefined, 'page', 'integer'],
    ['an id of 1e20 in a JSON body', 'POST', '/api/kb/chat', '{"question":"q","doc_ids":[1e20]}', 'body.doc_ids.0', '2^53'],
    ['an identity credential version past its integer column', 'PATCH', '/api/admin/widget-keys/1', '{"identity_credential_version":2147483648}', 'identity_credential_version', 'greater than 2147483647'],
    ['the same on rotate-identity-secret', 'POST', '/api/admin/widget-keys/1/rotate-identity-secret', '{"identity_credential_version":9007199254740991}', 'identity_credential_version', 'greater than'],
    ['a widget key filter of 1e20', 'GET', '/api/admin/widget-sessions?key=1e20', undefined, 'key', 'widget key id'],
    ['a notifications page of 1e20', 'GET', '/api/notifications?page=1e20', undefined, 'page', 'greater than'],
    ['a content-gaps window of 20 digits', 'GET', '/api/admin/kb/content-gaps?days=99999999999999999999', undefined, 'days', 'greater than'],
    ['a stale-days filter of 1e20', 'GET', '/api/admin/kb/health?stale_days=1e20', undefined, 'stale_days', 'greater than'],
    ['a log status of 1e20', 'GET', '/api/admin/logs/application?status=1e20', undefined, 'status', 'greater than'],
    ['a null email on a user update (null is not absent)', 'PATCH', '/api/admin/users/1', '{"email":null}', 'email', 'valid email'],
    ['a null name on a user update', 'PATCH', '/api/admin/users/1', '{"name":null}', 'name', 'string'],
    ['a lone surrogate in a source path (it would name the same document as U+FFFD)', 'POST', '/api/kb/ingest', '{"documents":[{"source_path":"\\udc00.md","content":"x"}]}', 'body.documents.0.source_path', 'valid Unicode'],
  ])('answers 422 naming the field for %s', async (_name, method, path, body, field, word) => {
    const r = await call(method, path, body, { token: admin.token });
    expect(r.status).toBe(422);
    expect(r.body['errors'][field]).toEqual(expect.arrayContaining([expect.stringContaining(word)]));
    expect(typeof r.body['message']).toBe('string');
  });

  it.each([
    ['/api/admin/users/99999999999999999999', 'User'],
    ['/api/admin/users/1e20/memberships', 'User'],
    ['/api/admin/memberships/-1', 'Membership'],
    ['/api/admin/connectors/1e20', 'Connector'],
    ['/api/admin/connectors/99999999999999999999/runs', 'Connector'],
    ['/api/admin/tabular-reviews/0', 'Tabular review'],
    ['/api/admin/compliance/reports/abc', 'Compliance report'],
    ['/api/admin/logs/chat/1e20', 'Chat log'],
    ['/api/kb/documents/99999999999999999999/preview', 'Document'],
  ])('answers a row id that cannot name a row (%s) 404 before the database', async (path, what) => {
    const r = await call('GET', path, undefined, { token: admin.token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: `${what} not found.` });
  });

  it('refuses a lone surrogate escape ("\\udc00") in a string field with 422 at the edge, on every route with a JSON body (walked from the OpenAPI document)', async () => {
    const doc = (await (await fetch(`${kb.svc.url}/api/kb/openapi.json`)).json()) as Json;
    const resolve = (schema: Json | undefined): Json | undefined => {
      if (!schema?.['$ref']) return schema;
      return doc['components']['schemas'][String(schema['$ref']).split('/').pop()!];
    };
    /** The schema's object with every string property, nested objects and arrays of them included, set to a lone surrogate. */
    const poisoned = (schema: Json | undefined, depth = 0): unknown => {
      const s = resolve(schema);
      if (!s || depth > 4) return undefined;
      // A nullable field (`oneOf: [schema, {type: 'null'}]`) is poisoned through its non-null schema.
      const variant = ((s['oneOf'] ?? s['anyOf']) as Json[] | undefined)?.find((v) => v['type'] !== 'null');
      if (variant) return poisoned(variant, depth + 1);
      if (s['type'] === 'string') return '\udc00';
      if (s['type'] === 'array') return [poisoned(s['items'], depth + 1)].filter((v) => v !== undefined);
      if (s['type'] === 'object' || s['properties']) {
        const out: Json = {};
        for (const [name, prop] of Object.entries((s['properties'] ?? {}) as Record<string, Json>)) {
          const v = poisoned(prop, depth + 1);
          if (v !== undefined) out[name] = v;
        }
        return out;
      }
      return undefined;
    };
    const tried: string[] = [];
    const failures: string[] = [];
    for (const [path, ops] of Object.entries(doc['paths'] as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops as Record<string, Json>)) {
        const schema = op?.['requestBody']?.['content']?.['application/json']?.['schema'];
        const body = poisoned(schema);
        // A body without a string field (ids, booleans) carries no surrogate to refuse.
        if (!body || typeof body !== 'object' || !JSON.stringify(body).includes('\\udc00')) continue;
        const url = path.replace(/\{[^}]+\}/g, '1');
        const r = await fetch(`${kb.svc.url}${url}`, { method: method.toUpperCase(), headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${admin.token}` }, body: JSON.stringify(body) });
        await r.arrayBuffer();
        tried.push(`${method} ${path}`);
        // Before authentication or any route's own checks: no stored value can differ from the one sent.
        if (r.status !== 422) failures.push(`${method.toUpperCase()} ${url} ${r.status}`);
      }
    }
    expect(tried.length).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('refuses null where a write route expects a value, so no later read trips on it (every JSON-body route sent nulls, all at once, one field at a time and one level into object fields, each refused with a 4xx naming the field, then every GET read, id-addressed ones on real rows; walked from the OpenAPI document)', async () => {
    const doc = (await (await fetch(`${kb.svc.url}/api/kb/openapi.json`)).json()) as Json;
    // An id no row has stops a route at its lookup (404) before the body is used, where a null
    // breaks: every {param} is filled from a real resource of its kind (the cross-tenant suite's
    // factories, which fail that suite for a kind they miss), each shape a kind's routes take.
    const kindOf = (path: string) => path.slice(0, path.indexOf('/{'));
    const resolve = (schema: Json | undefined): Json | undefined =>
      schema?.['$ref'] ? doc['components']['schemas'][String(schema['$ref']).split('/').pop()!] : schema;
    /** Whether the document lets the field be null: OpenAPI 3.1 `oneOf`/`anyOf` with `{type: 'null'}` or a type list with 'null', or 3.0's `nullable`. */
    const isNullable = (schema: Json | undefined): boolean => {
      const sc = resolve(schema);
      if (!sc) return false;
      if (sc['nullable'] === true || (Array.isArray(sc['type']) && sc['type'].includes('null'))) return true;
      return ((sc['oneOf'] ?? sc['anyOf'] ?? []) as Json[]).some((v) => v['type'] === 'null' || isNullable(v));
    };
    /** The schema a field takes when not null (`oneOf: [schema, {type: 'null'}]`, or a described `allOf: [schema]`), else the schema. */
    const nonNull = (schema: Json | undefined): Json | undefined => {
      const sc = resolve(schema);
      const variants = (sc?.['oneOf'] ?? sc?.['anyOf'] ?? sc?.['allOf']) as Json[] | undefined;
      const others = variants?.filter((v) => v['type'] !== 'null');
      return others?.length === 1 ? nonNull(others[0]) : sc;
    };
    /** The field's object schema when it names its properties (a free-form object names none). */
    const withProperties = (schema: Json | undefined): Json | undefined => {
      const sc = nonNull(schema);
      return sc?.['properties'] && Object.keys(sc['properties'] as Json).length > 0 ? sc : undefined;
    };
    /** A body that passes validation, from the schema (required fields only). */
    const sample = (schema: Json | undefined, depth = 0): unknown => {
      const sc = resolve(schema);
      if (!sc || depth > 4) return undefined;
      if (sc['oneOf']) return sample(sc['oneOf'][0], depth + 1);
      if (sc['enum']) return sc['enum'][0];
      if (sc['default'] !== undefined) return sc['default'];
      switch (sc['type']) {
        case 'object':
          return Object.fromEntries(((sc['required'] ?? []) as string[]).map((key) => [key, sample(sc['properties']?.[key], depth + 1)]));
        case 'array':
          // Distinct items, for arrays that must hold unique values.
          return Array.from({ length: sc['minItems'] ?? 0 }, (_, i) => {
            const item = sample(sc['items'], depth + 1);
            return typeof item === 'string' ? `${item}${i}` : item;
          });
        case 'integer':
        case 'number':
          return Math.max(1, sc['minimum'] ?? 1);
        case 'boolean':
          return false;
        default:
          return 'x'.repeat(Math.max(1, sc['minLength'] ?? 1));
      }
    };
    const params: Record<string, RouteParams[]> = {};
    for (const path of Object.keys(doc['paths'] as Json).filter((p) => p.includes('{'))) {
      const kind = kindOf(path);
      if (params[kind]) continue;
      if (!RESOURCE_FACTORIES[kind]) throw new Error(`no resource factory of ${kind} (cross-tenant-resources.ts)`);
      params[kind] = [await RESOURCE_FACTORIES[kind](resources)].flat();
    }
    await resources.settled();
    /** The route's URLs: one per shape of its kind's resources, a path parameter the shape lacks set to 1. */
    const urlsOf = (path: string) =>
      path.includes('{') ? params[kindOf(path)]!.map((values) => path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? '1'))) : [path];
    /** Whoever gets past the route's own gate, so its body is read: the public widget routes take the key, system-admin a platform admin. */
    const credentials = (url: string): Record<string, string> => {
      if (url === '/api/widget/user-token') return { 'x-widget-key': widget.publicKey, authorization: `Bearer ${widget.identitySecret}` };
      if (url.startsWith('/api/widget/')) return { 'x-widget-key': widget.publicKey, origin: widget.origin };
      return { authorization: `Bearer ${(url.startsWith('/api/system-admin/') ? platform : admin).token}` };
    };
    const send = async (method: string, url: string, body?: unknown) => {
      const r = await fetch(`${kb.svc.url}${url}`, {
        method: method.toUpperCase(),
        headers: { accept: 'application/json', ...credentials(url), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      const parsed = r.status >= 400 && r.status < 500 && text.startsWith('{') ? (JSON.parse(text) as Json) : undefined;
      const errors = parsed?.['errors'];
      return { status: r.status, errors: (errors && typeof errors === 'object' && !Array.isArray(errors) ? errors : undefined) as Record<string, string[]> | undefined };
    };
    /** Whether a refusal names the field (`errors["filters"]`, or one of its parts, `errors["filters.date_to"]`). */
    const naming = (errors: Record<string, string[]> | undefined, field: string) =>
      Object.keys(errors ?? {}).some((key) => key === field || key.startsWith(`${field}.`));
    // A document to read back: list and detail routes compute over the stored settings per document.
    expect((await send('post', '/api/kb/ingest', { documents: [{ source_path: 'null-walk.md', content: '# Null walk\n\nA document.' }] })).status).toBe(202);
    const failures: string[] = [];
    let writes = 0;
    let onRealRows = 0;
    let nested = 0;
    const ops = Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, byMethod]) => Object.entries(byMethod as Record<string, Json>).map(([method, op]) => ({ path, method, op })));
    for (const { path, method, op } of ops) {
      const s = resolve(op?.['requestBody']?.['content']?.['application/json']?.['schema']);
      const names = Object.keys((s?.['properties'] ?? {}) as Json);
      if (names.length === 0) continue;
      // Every field null at once, then each field null in an otherwise valid body: a required field
      // refused first would hide an optional one whose null the service trips on. Then, one level
      // down, each field of an object field (or of an array's object item) null in a valid object.
      const base = (sample(s) ?? {}) as Json;
      const bodies: { body: Json; field?: string; schema?: Json }[] = [
        { body: Object.fromEntries(names.map((n) => [n, null])) },
        ...names.map((n) => ({ body: { ...base, [n]: null }, field: n, schema: s?.['properties']?.[n] as Json })),
      ];
      for (const n of names) {
        const prop = withProperties(s?.['properties']?.[n]);
        const items = prop ? undefined : withProperties(resolve(nonNull(s?.['properties']?.[n]))?.['items']);
        const inner = prop ?? items;
        if (!inner) continue;
        for (const q of Object.keys(inner['properties'] as Json)) {
          const seed = sample(inner);
          const value = { ...(seed && typeof seed === 'object' && !Array.isArray(seed) ? (seed as Json) : {}), [q]: null };
          bodies.push({ body: { ...base, [n]: items ? [value] : value }, field: items ? `${n}.0.${q}` : `${n}.${q}`, schema: inner['properties'][q] as Json });
        }
      }
      for (const url of urlsOf(path)) {
        for (const { body, field, schema } of bodies) {
          writes++;
          if (url !== path) onRealRows++;
          const { status, errors } = await send(method, url, body);
          if (status >= 500 && !(String(status) in (op['responses'] ?? {}))) failures.push(`${method.toUpperCase()} ${url} ${JSON.stringify(body)} ${status}`);
          // null is not absence: a field the document does not mark nullable refuses it, with a 4xx
          // naming it (a client that meant "clear this" learns it cannot, instead of the null being
          // dropped without a word, or hidden behind another field's refusal); one it marks nullable
          // takes it (the refusal, if any, names another field).
          if (field === undefined) continue;
          if (field.includes('.')) nested++;
          const nullable = isNullable(schema);
          if (!nullable && status < 400) failures.push(`${method.toUpperCase()} ${url} took ${field}: null (${status})`);
          else if (!nullable && !naming(errors, field)) failures.push(`${method.toUpperCase()} ${url} refused ${field}: null without naming it (${status} ${Object.keys(errors ?? {}).join(', ') || 'no field'})`);
          if (nullable && naming(errors, field)) failures.push(`${method.toUpperCase()} ${url} refused ${field}: null, documented nullable (${Object.entries(errors!).filter(([k]) => k === field || k.startsWith(`${field}.`)).flatMap(([, v]) => v).join(' ')})`);
        }
      }
    }
    for (const { path, method, op } of ops) {
      if (method !== 'get' || path.includes('openapi')) continue;
      for (const url of urlsOf(path)) {
        const { status } = await send(method, url);
        if (status >= 500 && !(String(status) in (op['responses'] ?? {}))) failures.push(`then GET ${url} ${status}`);
      }
    }
    expect(writes).toBeGreaterThan(20);
    expect(onRealRows).toBeGreaterThan(10);
    expect(nested).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    // Nulls an earlier release stored (before PUT bodies refused them) read as the defaults.
    await kb.db.query(
      `INSERT INTO kb_admin_settings (tenant_id, kind, value) VALUES ('default', 'evidence_tiers', '{"tiers":null,"default_rank":null}')
       ON CONFLICT (tenant_id, kind) DO UPDATE SET value = excluded.value`,
    );
    expect((await send('get', '/api/admin/kb/documents')).status).toBe(200);
    const tiers = await fetch(`${kb.svc.url}/api/admin/kb/evidence-tiers`, { headers: { accept: 'application/json', authorization: `Bearer ${admin.token}` } });
    expect(((await tiers.json()) as Json).data).toMatchObject({ tiers: expect.any(Array), default_rank: expect.any(Number) });
  }, 180_000);

  it('answers a body over 16 KiB on the credential routes 413, and keeps the large limit elsewhere', async () => {
    const big = JSON.stringify({ email: 'a@x.test', password: 'x'.repeat(20 * 1024) });
    for (const path of ['/api/auth/login', '/api/auth/token', '/api/auth/forgot-password']) {
      const r = await call('POST', path, big);
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ message: 'Payload too large.' });
    }
    const chat = await call('POST', '/api/kb/chat', JSON.stringify({ question: 'x'.repeat(20 * 1024) }), { token: admin.token });
    expect(chat.status).toBe(422); // over the question's 10,000 characters, not over a body limit
  });

  it('answers malformed JSON 400 and charset=latin1 415 in the error shape', async () => {
    const malformed = await call('POST', '/api/auth/token', '{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Bad request.' });
    const latin1 = await call('POST', '/api/auth/token', '{"email":"a@x.test"}', { type: 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(typeof latin1.body['message']).toBe('string');
    expect(latin1.body).toEqual({ message: expect.stringContaining('UTF-8') });
  });

  it.each([
    ['text/plain', 'POST', '/api/admin/kb/synonyms', '{"terms":["a","b"]}'],
    ['text/plain', 'POST', '/mcp/kb', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
    ['text/plain', 'POST', '/api/auth/token', '{"email":"a@x.test","password":"p"}'],
    ['application/xml', 'PUT', '/api/admin/pii/strategy', '<actions/>'],
    ['multipart/form-data; boundary=x', 'POST', '/api/kb/chat', '--x\r\n\r\nq\r\n--x--'],
  ])('answers a body of type %s on a JSON route (%s %s) 415 naming the media types it reads, in the knowledge base shape', async (type, method, path, body) => {
    const r = await call(method, path, body, { type, token: admin.token });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ message: 'Request bodies are read as application/json or application/x-www-form-urlencoded (UTF-8) only.' });
  });

  it('answers a NUL in a header (refused by Node before the app) with a JSON 400 and closes the connection', async () => {
    const r = await rawHttp(kb.svc.url, 'GET /api/kb/documents HTTP/1.1\r\nHost: x\r\nX-Tenant-Id: a\0b\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.headers['connection']).toBe('close');
    expect(JSON.parse(r.body)).toEqual({ error: 'bad_request', message: expect.stringContaining('not well-formed HTTP') });
  });

  it.each(['X-Tenant-Id', 'Idempotency-Key', 'X-Request-Id', 'X-Widget-Key'])('answers bytes that are not UTF-8 in %s 422 naming the header', async (header) => {
    const r = await rawHttp(kb.svc.url, `GET /api/admin/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\n${header}: a\xffb\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body)).toEqual({ message: 'must be valid UTF-8', errors: { [`header.${header.toLowerCase()}`]: ['must be valid UTF-8'] } });
    // The refused request id is not echoed; a fresh one names the answer.
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps valid UTF-8 in a data header', async () => {
    const r = await rawHttp(kb.svc.url, `GET /api/admin/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\nIdempotency-Key: ${Buffer.from('clé-1').toString('latin1')}\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(200);
  });

  it('writes one access-log line for a request the edge layer refuses', async () => {
    const logger = platformHttpLogger()!;
    const info = jest.spyOn(logger, 'info');
    try {
      const r = await fetch(`${kb.svc.url}/api/admin/users?search=a%00`, { headers: { authorization: `Bearer ${admin.token}`, 'x-request-id': 'edge-refused-1' } });
      expect(r.status).toBe(422);
      expect(r.headers.get('x-request-id')).toBe('edge-refused-1');
      await r.text();
      const lines = () => info.mock.calls.filter(([line]) => (line as { req?: { id?: string } })?.req?.id === 'edge-refused-1');
      for (let i = 0; i < 50 && lines().length === 0; i++) await new Promise((res) => setTimeout(res, 10));
      expect(lines()).toHaveLength(1);
      const [line, message] = lines()[0]!;
      expect(message).toBe('request completed');
      expect((line as { res: { statusCode: number } }).res.statusCode).toBe(422);
    } finally {
      info.mockRestore();
    }
  });
});
