import { PasswordHasher } from '@platform/crypto';
import { DataSource } from 'typeorm';

const hasher = new PasswordHasher({ memoryCost: 4096, timeCost: 1 });

export interface UserFixture {
  email: string;
  password?: string;
  name?: string;
  tenant?: string;
  roles?: string[];
  active?: boolean;
  platformAdmin?: boolean;
}

/** A user straight in the database (the admin API that creates users is tested on its own). */
export async function createUser(db: DataSource, u: UserFixture): Promise<{ id: string; email: string; password: string }> {
  const password = u.password ?? 'correct horse battery staple';
  const tenant = u.tenant ?? 'default';
  await db.query(`INSERT INTO kb_tenants (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [tenant]);
  const [row] = await db.query(
    `INSERT INTO kb_users (tenant_id, name, email, email_key, password_hash, active) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [tenant, u.name ?? u.email.split('@')[0], u.email, u.email.trim().toLowerCase(), await hasher.hash(password), u.active ?? true],
  );
  for (const role of u.roles ?? []) await db.query('INSERT INTO kb_user_roles (tenant_id, user_id, role) VALUES ($1, $2, $3)', [tenant, row.id, role]);
  if (u.platformAdmin) await db.query(`INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES (NULL, $1, 'platform.admin')`, [row.id]);
  return { id: String(row.id), email: u.email, password };
}

/** Waits until `count` documents are indexed (the worker runs beside the test), or fails naming how many were. */
export async function waitIndexed(db: DataSource, count: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`);
    if (n === count) return;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${count} documents indexed`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A fetch client with a cookie jar that sends the XSRF header like the SPA does (unless told not to). */
export class KbClient {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async call(method: string, path: string, o: { body?: unknown; token?: string; headers?: Record<string, string>; csrf?: boolean } = {}) {
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    if (o.token) headers['authorization'] = `Bearer ${o.token}`;
    if (this.cookies.size) headers['cookie'] = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && o.csrf !== false) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    const r = await fetch(this.baseUrl + path, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
    for (const set of r.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(set)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await r.text();
    return { status: r.status, headers: r.headers, setCookies: r.headers.getSetCookie(), body: (text ? JSON.parse(text) : null) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
}
