import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * Hostile requests derived from the committed OpenAPI documents, and a raw HTTP client that tells
 * an answer from a dropped connection. Used by the route fuzzer; nothing here knows a route by
 * name: every route, parameter and body field comes from docs/api/*.openapi.json.
 */

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Operation {
  /** The document's file name without `.openapi.json`. */
  service: string;
  method: string;
  /** Full path as the gateway serves it, `{name}` parameters included. */
  path: string;
  params: Array<{ name: string; in: string; required: boolean; schema: Schema }>;
  /** Media type of the request body, when the operation takes one. */
  bodyType?: string;
  bodySchema?: Schema;
  /** Media types the document declares for the operation's 4xx answers. */
  errorTypes: Set<string>;
  /** Every status the document declares for the operation. */
  statuses: Set<string>;
  /** Security scheme names the operation accepts (empty: public). */
  security: string[];
}

export interface Probe {
  op: Operation;
  variant: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the headers first and the body only after `100 Continue` (or a final answer). */
  expectContinue?: boolean;
}

export interface Outcome {
  status?: number;
  contentType?: string;
  body?: string;
  /** The connection failed before an answer arrived (reset, hang-up, timeout). */
  error?: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function resolve(doc: Schema, schema: Schema | undefined, depth = 0): Schema | undefined {
  if (!schema || depth > 10) return schema;
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce((node: Schema | undefined, key: string) => node?.[key], doc);
    return resolve(doc, target, depth + 1);
  }
  return schema;
}

/** Every operation of every committed document under `docsDir`. */
export function loadOperations(docsDir: string): Operation[] {
  const ops: Operation[] = [];
  for (const file of readdirSync(docsDir).filter((f) => f.endsWith('.openapi.json')).sort()) {
    const doc = JSON.parse(readFileSync(path.join(docsDir, file), 'utf8')) as Schema;
    const base = String(doc.servers?.[0]?.url ?? '/').replace(/\/$/, '');
    for (const [p, item] of Object.entries(doc.paths as Record<string, Schema>)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method] as Schema;
        const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
          .map((x: Schema) => resolve(doc, x)!)
          .map((x: Schema) => ({ name: String(x.name), in: String(x.in), required: Boolean(x.required), schema: resolve(doc, x.schema) ?? {} }));
        const content = (resolve(doc, op.requestBody)?.content ?? {}) as Record<string, Schema>;
        const bodyType = Object.keys(content)[0];
        const errorTypes = new Set<string>();
        for (const [status, answer] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
          if (status.startsWith('4')) for (const type of Object.keys(resolve(doc, answer)?.content ?? {})) errorTypes.add(type);
        }
        const security = ((op.security ?? doc.security ?? []) as Array<Record<string, string[]>>).flatMap((s) => Object.keys(s));
        ops.push({
          service: file.replace('.openapi.json', ''),
          method,
          path: `${base}${p}`,
          params,
          bodyType,
          bodySchema: bodyType ? resolveDeep(doc, content[bodyType].schema) : undefined,
          errorTypes,
          statuses: new Set(Object.keys(op.responses ?? {})),
          security,
        });
      }
    }
  }
  return ops;
}

/** The schema with `$ref`s of its top-level properties resolved (enough to find string and number fields). */
function resolveDeep(doc: Schema, schema: Schema | undefined): Schema | undefined {
  const s = resolve(doc, schema);
  if (!s?.properties) return s;
  return { ...s, properties: Object.fromEntries(Object.entries(s.properties as Record<string, Schema>).map(([k, v]) => [k, resolve(doc, v) ?? {}])) };
}

const isNumeric = (s: Schema) => s.type === 'integer' || s.type === 'number' || (typeof s.pattern === 'string' && /^\^\[1-9\]|\^\\d|\^\[0-9\]/.test(s.pattern));

/** A value that satisfies the parameter's schema without naming a real row, so a probe changes nothing that exists. */
function filler(schema: Schema): string {
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.const !== undefined) return String(schema.const);
  if (isNumeric(schema)) return '987654321';
  return 'fuzz-missing';
}

function urlFor(op: Operation, overrides: Record<string, string> = {}): string {
  let p = op.path;
  for (const param of op.params.filter((x) => x.in === 'path')) {
    p = p.replace(`{${param.name}}`, overrides[`path:${param.name}`] ?? encodeURIComponent(filler(param.schema)));
  }
  const query = op.params
    .filter((x) => x.in === 'query' && overrides[`query:${x.name}`] !== undefined)
    .map((x) => `${encodeURIComponent(x.name)}=${overrides[`query:${x.name}`]}`);
  return query.length ? `${p}?${query.join('&')}` : p;
}

const isForm = (type?: string) => type === 'application/x-www-form-urlencoded';

/** Top-level body fields of a kind, at most `max` of them (the first in document order). */
function fields(op: Operation, kind: 'string' | 'number', max: number): string[] {
  const props = (op.bodySchema?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props)
    .filter(([, s]) => (kind === 'string' ? s.type === 'string' || (!s.type && !s.properties && !s.items && !s.enum && !s.const && !s.oneOf) : s.type === 'integer' || s.type === 'number'))
    .map(([name]) => name)
    .slice(0, max);
}

/** Raw JSON text of an object whose one field holds `rawValue` (already JSON-encoded or raw bytes). */
const jsonWith = (field: string, raw: Buffer) => Buffer.concat([Buffer.from(`{${JSON.stringify(field)}:`), raw, Buffer.from('}')]);
const formWith = (field: string, raw: string) => Buffer.from(`${encodeURIComponent(field)}=${raw}`);

/** Every hostile variant of one operation. `big` adds a 70 MB body. */
export function probesFor(op: Operation, opts: { big?: boolean } = {}): Probe[] {
  const probes: Probe[] = [];
  const add = (variant: string, url: string, headers: Record<string, string> = {}, body?: Buffer, extra: Partial<Probe> = {}) =>
    probes.push({ op, variant, method: op.method.toUpperCase(), url, headers, body, ...extra });

  // Parameters: NUL and a byte that is not UTF-8, percent-encoded as a client would send them.
  for (const param of op.params.filter((x) => x.in === 'query' || x.in === 'path')) {
    const key = `${param.in}:${param.name}`;
    add(`${key}=%00`, urlFor(op, { [key]: 'a%00b' }));
    add(`${key}=%FF`, urlFor(op, { [key]: 'a%FFb' }));
    if (isNumeric(param.schema) || param.schema.type === 'integer') {
      add(`${key}=1e20`, urlFor(op, { [key]: '1e20' }));
      add(`${key}=99999999999999999999`, urlFor(op, { [key]: '99999999999999999999' }));
    }
  }

  const url = urlFor(op);
  // A parameter no route declares: the edge must refuse or ignore it cleanly on every route.
  const sep = url.includes('?') ? '&' : '?';
  add('undeclared query fuzz=%00', `${url}${sep}fuzz=a%00b`);
  add('undeclared query fuzz=%FF', `${url}${sep}fuzz=a%FFb`);
  const takesBody = op.bodyType !== undefined || ['post', 'put', 'patch'].includes(op.method);
  if (!takesBody) return probes;
  const json = { 'content-type': 'application/json' };

  if (isForm(op.bodyType)) {
    for (const field of fields(op, 'string', 3)) {
      add(`form ${field}=%00`, url, { 'content-type': op.bodyType! }, formWith(field, 'a%00b'));
      add(`form ${field}=%FF`, url, { 'content-type': op.bodyType! }, formWith(field, 'a%FFb'));
    }
    add('json to a form route', url, json, Buffer.from('{"a":1}'));
  } else {
    for (const field of fields(op, 'string', 3)) {
      add(`json ${field}=\\u0000`, url, json, jsonWith(field, Buffer.from('"a\\u0000b"')));
      add(`json ${field}=<FF byte>`, url, json, jsonWith(field, Buffer.from([0x22, 0x61, 0xff, 0x62, 0x22])));
    }
    for (const field of fields(op, 'number', 2)) {
      add(`json ${field}=1e20`, url, json, jsonWith(field, Buffer.from('1e20')));
      add(`json ${field}=99999999999999999999`, url, json, jsonWith(field, Buffer.from('99999999999999999999')));
    }
    add('form to a JSON route', url, { 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from('a=1&b=%00'));
  }
  add('text/plain', url, { 'content-type': 'text/plain' }, Buffer.from('hello\u0000'));
  add('application/xml', url, { 'content-type': 'application/xml' }, Buffer.from('<?xml version="1.0"?><a>1</a>'));
  const depth = 5000;
  add(`JSON nested ${depth} deep`, url, json, Buffer.from('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));
  add('JSON array nested 5000 deep', url, json, Buffer.from('['.repeat(depth) + ']'.repeat(depth)));
  add('2 MB body', url, { 'content-type': isForm(op.bodyType) ? op.bodyType! : 'application/json' }, oversized(2 * 1024 * 1024, isForm(op.bodyType)));
  if (opts.big) add('70 MB body', url, { 'content-type': isForm(op.bodyType) ? op.bodyType! : 'application/json' }, oversized(70 * 1024 * 1024, isForm(op.bodyType)));
  add('Expect: 100-continue', url, { 'content-type': isForm(op.bodyType) ? op.bodyType! : 'application/json', expect: '100-continue' }, Buffer.from(isForm(op.bodyType) ? 'a=1' : '{}'), { expectContinue: true });
  return probes;
}

/** A well-formed body of `bytes` bytes: one long string field. */
function oversized(bytes: number, form: boolean): Buffer {
  const buf = Buffer.alloc(bytes, 0x61);
  if (form) buf.write('fill=', 0);
  else {
    buf.write('{"fill":"', 0);
    buf.write('"}', bytes - 2);
  }
  return buf;
}

/**
 * Sends one probe on its own connection (so a reused connection the server closed cannot pass for
 * a reset) and reads the whole answer. An answer that arrives while the body is still being written
 * counts: refusing an oversized body early is what a server should do.
 */
export function send(base: string, probe: Probe, auth: Record<string, string>, timeoutMs: number): Promise<Outcome> {
  const target = new URL(base);
  return new Promise((resolvePromise) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(o);
    };
    const headers: Record<string, string | number> = { connection: 'close', accept: 'application/json', ...auth, ...probe.headers };
    if (probe.body) headers['content-length'] = probe.body.length;
    const req = http.request({ host: target.hostname, port: target.port, method: probe.method, path: probe.url, headers, agent: false });
    const timer = setTimeout(() => {
      done({ error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        // Only the start of a body is needed to judge it; the rest is drained.
        if (size < 64 * 1024) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => done({ status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => done({ status: res.statusCode, error: `answer cut off: ${e.message}` }));
    });
    req.on('error', (e) => done({ error: `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`.trim() }));
    if (!probe.body) return void req.end();
    if (probe.expectContinue) {
      req.on('continue', () => req.end(probe.body));
      req.flushHeaders();
      return;
    }
    req.end(probe.body);
  });
}

/** Why an outcome fails the rules (no 5xx, an answer, a JSON error body), or undefined. */
export function judge(probe: Probe, o: Outcome): string | undefined {
  if (o.error && o.status === undefined) return o.error;
  if (o.error) return `${o.status} ${o.error}`;
  const status = o.status!;
  // A declared 503 is the service's state (a feature switched off or not configured), not a fault.
  if (status === 503 && probe.op.statuses.has('503')) return undefined;
  if (status >= 500) return `${status} ${(o.body ?? '').slice(0, 160)}`;
  if (status < 400) return undefined;
  const type = (o.contentType ?? '').split(';')[0].trim();
  // Sign-in pages show their errors as HTML pages, which their documents declare.
  if (type === 'text/html' && probe.op.errorTypes.has('text/html')) return undefined;
  if (type !== 'application/json' && type !== 'application/problem+json') return `${status} with content-type "${o.contentType}"`;
  try {
    JSON.parse(o.body ?? '');
  } catch {
    return `${status} with a body that is not JSON: ${(o.body ?? '').slice(0, 80)}`;
  }
  return undefined;
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]);
      }
    }),
  );
  return results;
}
