import { startWorker } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { createUser, KbClient, UserFixture } from './kb-fixtures';
import { startKb } from './kb-test-env';

/** A user created in the database plus a personal access token of theirs (bearer calls need no CSRF). */
export interface Caller {
  id: string;
  email: string;
  password: string;
  token: string;
}

export async function callerWith(baseUrl: string, db: DataSource, u: UserFixture): Promise<Caller> {
  const user = await createUser(db, u);
  const r = await new KbClient(baseUrl).call('POST', '/api/auth/token', {
    body: { email: user.email, password: user.password },
  });
  if (r.status !== 201) throw new Error(`token issue for ${user.email} answered ${r.status}`);
  return { ...user, token: r.body.token };
}

/** A signed-in cookie session (the SPA's client). */
export async function sessionOf(
  baseUrl: string,
  user: { email: string; password: string },
): Promise<KbClient> {
  const c = new KbClient(baseUrl);
  const r = await c.call('POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  if (r.status !== 200) throw new Error(`login of ${user.email} answered ${r.status}`);
  return c;
}

/**
 * kb-api with a worker, a caller per role of the admin gates (viewer, editor, an admin of the given
 * role, and an admin of another tenant), and documents ingested by the editor and indexed: the
 * setup of the admin-area e2e files.
 */
export async function startKbWithCallers(domain: string, options: { adminRole?: 'admin' | 'super-admin'; documents?: object[] } = {}) {
  const { svc, db, stop } = await startKb();
  const worker = await startWorker((await import('../src/worker.module')).WorkerModule);
  const viewer = await callerWith(svc.url, db, { email: `viewer@${domain}`, roles: ['viewer'] });
  const editor = await callerWith(svc.url, db, { email: `editor@${domain}`, roles: ['editor'] });
  const admin = await callerWith(svc.url, db, { email: `admin@${domain}`, roles: [options.adminRole ?? 'admin'] });
  const foreignAdmin = await callerWith(svc.url, db, { email: `admin@other.${domain}`, roles: ['admin'], tenant: 'other' });
  const ids: Record<string, number> = {};
  const documents = options.documents ?? [];
  if (documents.length) {
    const r = await new KbClient(svc.url).call('POST', '/api/kb/ingest', { token: editor.token, body: { documents } });
    if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${JSON.stringify(r.body)}`);
    for (const d of r.body.documents) ids[d.source_path] = d.document_id;
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status <> 'pending'`))[0].n < documents.length) {
      if (Date.now() > deadline) throw new Error('the worker did not index the documents within 15 s');
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  return {
    svc,
    db,
    worker,
    viewer,
    editor,
    admin,
    foreignAdmin,
    ids,
    stop: async () => {
      await worker.close();
      await stop();
    },
  };
}
