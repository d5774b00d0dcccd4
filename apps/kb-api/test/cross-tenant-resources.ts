import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { DataSource } from 'typeorm';
import type { Caller } from './admin-support';
import { KbClient } from './kb-fixtures';

/** The values of a route's path parameters by name (`{id}`, `{kind}`, `{message}` …), and any its body needs. */
export type RouteParams = Record<string, string>;

/** Tenant A as the cross-tenant suite sets it up: the app, its database, two of A's users and the app's folders. */
export interface TenantA {
  tenant: string;
  url: string;
  db: DataSource;
  super: Caller;
  viewer: Caller;
  /** KB_STORAGE_PATH of the app under test. */
  storage: string;
  /** KB_CONNECTOR_FS_ROOTS of the app under test (an empty folder). */
  connectorRoot: string;
  /** A's widget key, for the widget's own routes. */
  widgetKey: { id: string; publicKey: string; origin: string };
}

/** Documents of A: a wiki pair (a shared term and heading make concepts), tagged. */
const WIKI_DOCUMENTS = [
  { source_path: 'wiki/alpha.md', content: '# Alpha rocket\n\n## Deployment\n\nThe alpha rocket launches from kubernetes pads.\n', metadata: { tags: ['acme-launch'] } },
  { source_path: 'wiki/beta.md', content: '# Beta rocket\n\n## Deployment\n\nThe beta rocket also runs on kubernetes.\n', metadata: { tags: ['acme-launch'] } },
];
const BROKEN = 'broken/missing-original.md';
const DRAFT = `---
slug: acme-launch-decision
type: decision
status: accepted
---
# Launch from the northern pad
`;

/**
 * Before the worker runs: A's documents, one of them with its stored original moved away so its
 * IngestDocumentJob really fails (a failed job of A). Answers the id of `secret.md`, submitted by
 * A's viewer.
 */
export async function seedTenantA(a: Omit<TenantA, 'widgetKey'>, secret: { source_path: string; content: string }): Promise<string> {
  const client = new KbClient(a.url);
  const mine = await client.call('POST', '/api/kb/ingest', { token: a.viewer.token, body: { documents: [secret] } });
  const theirs = await client.call('POST', '/api/kb/ingest', {
    token: a.super.token,
    body: { documents: [...WIKI_DOCUMENTS, { source_path: BROKEN, content: '# Broken\n\nIts original is gone.' }] },
  });
  if (mine.status !== 202 || theirs.status !== 202) throw new Error(`ingest answered ${mine.status} / ${theirs.status}`);
  const [row] = await a.db.query('SELECT storage_key FROM kb_documents WHERE tenant_id = $1 AND source_path = $2', [a.tenant, BROKEN]);
  const file = path.join(a.storage, row.storage_key);
  await rename(file, `${file}.away`);
  return String(mine.body.documents[0].document_id);
}

/**
 * Makes A's resources through A's own API (the admin routes as A's super-admin, the user routes as
 * A's viewer), each prerequisite once. `settled` waits for what the worker still does for A, so a
 * snapshot of A's rows taken after it stays still unless someone changes them.
 */
export class ResourcesOfA {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    readonly a: TenantA,
    readonly documentId: string,
  ) {}

  /** A call that must succeed with `status`; answers the body. */
  async ok(who: Caller | { headers: Record<string, string> }, method: string, url: string, status: number, body?: unknown) {
    const r = await new KbClient(this.a.url).call(method, url, 'token' in who ? { token: who.token, body } : { headers: who.headers, body });
    if (r.status !== status) throw new Error(`${method} ${url} answered ${r.status} (not ${status}): ${JSON.stringify(r.body)}`);
    return r.body;
  }

  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  async until<T>(what: string, read: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`tenant A: ${what} did not happen within ${ms / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every document of A indexed or failed (the broken one fails after its retries). */
  indexed(): Promise<void> {
    return this.once('indexed', () => this.settled());
  }

  /** A question the documents do not cover: a refused answer, so a chat log and a content gap. */
  unansweredChat(): Promise<true> {
    return this.once('chat', async () => {
      await this.indexed();
      await this.ok(this.a.viewer, 'POST', '/api/kb/chat', 200, { question: 'Which football team won the cup?' });
      return true as const;
    });
  }

  /** Two concepts of A (and their pages). */
  wikiBuilt(): Promise<{ id: string; other: string }> {
    return this.once('wiki', async () => {
      await this.indexed();
      // Built again until it has two concepts (a build only sees what is indexed when it runs); if it
      // never does, the error says what the build and A's documents looked like.
      let last: unknown;
      const concepts = await this.until(
        'a wiki build with two concepts',
        async () => {
          last = await this.ok(this.a.super, 'POST', '/api/admin/kb/wiki-build', 200);
          const page = await this.ok(this.a.super, 'GET', '/api/admin/kb/concepts', 200);
          return page.data.length >= 2 ? page : undefined;
        },
        10_000,
      ).catch(async (e: Error) => {
        const documents = await this.a.db.query(
          `SELECT d.source_path, d.status, d.error, d.deleted_at IS NOT NULL AS deleted, (SELECT count(*)::int FROM kb_chunks c WHERE c.document_id = d.id) AS chunks
             FROM kb_documents d WHERE d.tenant_id = $1 ORDER BY d.source_path`,
          [this.a.tenant],
        );
        throw new Error(`${e.message}: last build ${JSON.stringify(last)}; documents ${JSON.stringify(documents)}`);
      });
      return { id: String(concepts.data[0].id), other: String(concepts.data[1].id) };
    });
  }

  /** A paused promotion; it notifies A's approvers (A's super-admin among them). */
  promotion(): Promise<string> {
    return this.once('promotion', async () => {
      const paused = await this.ok(this.a.super, 'POST', '/api/kb/promotion/promote', 202, { project_key: 'default', markdown: DRAFT });
      return String(paused.approval.approval_id);
    });
  }

  connector(): Promise<{ id: string; run: string }> {
    return this.once('connector', async () => {
      const created = await this.ok(this.a.super, 'POST', '/api/admin/connectors', 201, {
        name: 'Acme drive',
        kind: 'filesystem',
        project_key: 'default',
        config: { path: this.a.connectorRoot },
      });
      const id = String(created.data.id);
      const run = await this.ok(this.a.super, 'POST', `/api/admin/connectors/${id}/sync`, 200);
      return { id, run: String(run.data.id) };
    });
  }

  commandRun(): Promise<string> {
    return this.once('command', async () => String((await this.ok(this.a.super, 'POST', '/api/admin/commands/run', 200, { command: 'prune-expired-auth' })).data.id));
  }

  widgetSession(): Promise<string> {
    return this.once('widget-session', async () => {
      const { publicKey, origin } = this.a.widgetKey;
      const started = await this.ok({ headers: { 'x-widget-key': publicKey, origin } }, 'POST', '/api/widget/sessions/start', 200, { snapshot: { title: 'Acme' } });
      return String(started.session.id);
    });
  }

  /** Nothing of A left for the worker: no document pending. */
  async settled(): Promise<void> {
    await this.until('indexing', async () => {
      const [{ n }] = await this.a.db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE tenant_id = $1 AND status = 'pending'`, [this.a.tenant]);
      return n === 0 ? true : undefined;
    });
  }
}

const first = async (r: ResourcesOfA, what: string, url: string, who: Caller = r.a.super): Promise<string> =>
  r.until(what, async () => {
    const page = await r.ok(who, 'GET', url, 200);
    return page.data?.[0] ? String(page.data[0].id) : undefined;
  });

/**
 * Tenant A's resource of every kind the OpenAPI document addresses by id (the path before its first
 * parameter), with a value for each of the kind's path parameters; several when a kind's routes take
 * several shapes. A kind missing here fails the suite until it is added.
 */
export const RESOURCE_FACTORIES: Record<string, (r: ResourcesOfA) => Promise<RouteParams | RouteParams[]>> = {
  '/api/admin/users': async (r) => ({ user: r.a.viewer.id }),
  '/api/admin/memberships': async (r) => ({
    id: String((await r.ok(r.a.super, 'POST', `/api/admin/users/${r.a.viewer.id}/memberships`, 201, { project_key: 'default' })).data.id),
  }),
  '/api/admin/roles': async () => ({ role: 'viewer' }),
  // A tool call of A's parked for approval, with its single-use token: B may neither decide it
  // (by token) nor read its outcome (by approval id).
  '/api/kb/tool-approvals': async (r) => ({ token: (await parkedCallOfA(r.a)).token }),
  '/mcp/kb/calls': async (r) => ({ approvalId: (await parkedCallOfA(r.a)).approvalId }),
  '/api/system-admin/tenants': async (r) => ({ tenant: r.a.tenant }),
  '/api/kb/documents': async (r) => ({ documentId: r.documentId }),
  '/api/admin/kb/documents': async (r) => ({ id: r.documentId }),
  '/api/conversations': async (r) => {
    await r.indexed();
    const id = String((await r.ok(r.a.viewer, 'POST', '/api/conversations', 201, {})).id);
    const reply = await r.ok(r.a.viewer, 'POST', `/api/conversations/${id}/messages`, 201, { content: 'What are the launch codes?' });
    return { id, message: String(reply.id) };
  },
  '/api/chat-filter-presets': async (r) => ({
    id: String((await r.ok(r.a.viewer, 'POST', '/api/chat-filter-presets', 201, { name: 'mine', filters: {} })).data.id),
  }),
  '/api/admin/widget-keys': async (r) => ({ id: r.a.widgetKey.id }),
  '/api/admin/mcp/tokens': async (r) => ({ id: String((await r.ok(r.a.super, 'POST', '/api/admin/mcp/tokens', 201, { label: 'a-desk' })).data.id) }),
  '/api/admin/identity-links': async (r) => ({
    id: String((await r.ok(r.a.super, 'POST', '/api/admin/identity-links', 201, { subject: 'iam-acme-viewer', user_id: r.a.viewer.id })).data.id),
  }),
  '/api/admin/kb/collections': async (r) => ({
    id: String((await r.ok(r.a.super, 'POST', '/api/admin/kb/collections', 201, { name: 'Launch', description: 'Acme launch papers' })).data.id),
  }),
  '/api/admin/kb/synonyms': async (r) => ({
    id: String((await r.ok(r.a.super, 'POST', '/api/admin/kb/synonyms', 201, { terms: ['rocket', 'launcher'] })).data.id),
  }),
  '/api/admin/kb/tags': async () => ({ tag: WIKI_DOCUMENTS[0].metadata.tags[0] }),
  '/api/admin/kb/analyses': async (r) => {
    await r.indexed();
    return { id: String((await r.ok(r.a.super, 'POST', '/api/admin/kb/analyses', 201, { project_key: 'default' })).data.id) };
  },
  '/api/admin/kb/content-gaps': async (r) => {
    await r.unansweredChat();
    return { id: await first(r, 'a content gap', '/api/admin/kb/content-gaps') };
  },
  // `into` is for the merge's body.
  '/api/admin/kb/concepts': async (r) => {
    const { id, other } = await r.wikiBuilt();
    return { id, into: other };
  },
  // A concept's page has the concept's id.
  '/api/admin/kb/wiki-pages': async (r) => {
    const { id } = await r.wikiBuilt();
    await r.ok(r.a.super, 'GET', `/api/admin/kb/wiki-pages/${id}`, 200);
    return { id };
  },
  '/api/admin/logs/chat': async (r) => {
    await r.unansweredChat();
    return { id: await first(r, 'a chat log', '/api/admin/logs/chat') };
  },
  '/api/admin/logs/failed-jobs': async (r) => ({ id: await first(r, 'a failed ingest job', '/api/admin/logs/failed-jobs') }),
  '/api/admin/compliance/reports': async (r) => ({
    id: String((await r.ok(r.a.super, 'POST', '/api/admin/compliance/reports', 201, { kind: 'access-review' })).data.id),
  }),
  '/api/admin/connectors': async (r) => ({ id: (await r.connector()).id }),
  // The built-in server and one of its tools: names every tenant has (B finds its own, see the suite).
  '/api/admin/mcp-servers': async (r) => {
    const servers = await r.ok(r.a.super, 'GET', '/api/admin/mcp-servers', 200);
    return { server: String(servers.data[0].name), tool: String(servers.data[0].tools[0].name) };
  },
  '/api/admin/tabular-reviews': async (r) => {
    await r.indexed();
    const created = await r.ok(r.a.super, 'POST', '/api/admin/tabular-reviews', 201, {
      name: 'Launch grid',
      document_ids: [Number(r.documentId)],
      columns: [{ question: 'What are the codes?' }],
    });
    return { id: String(created.data.id) };
  },
  // One flow of every kind.
  '/api/admin/workflows': async (r) => [
    { kind: 'promotion', id: await r.promotion() },
    { kind: 'ingest', id: r.documentId },
    { kind: 'connector_sync', id: (await r.connector()).run },
    { kind: 'command_run', id: await r.commandRun() },
  ],
  '/api/admin/widget-sessions': async (r) => ({ id: await r.widgetSession() }),
  '/api/widget/sessions': async (r) => {
    const id = await r.widgetSession();
    return { id, approvalId: await widgetParkedCallOfA(r.a, id) };
  },
  '/api/kb/promotion': async (r) => ({ approvalId: await r.promotion() }),
  '/api/notifications': async (r) => {
    await r.promotion();
    return { id: await first(r, 'a notification', '/api/notifications') };
  },
};

/** A backend tool call A's widget session parked, written as the widget channel parks one. */
async function widgetParkedCallOfA(a: TenantA, sessionId: string): Promise<string> {
  const approvalId = randomUUID();
  await a.db.query(
    `INSERT INTO kb_parked_tool_calls (tenant_id, approval_id, run_id, token_hash, channel, tool, arguments, principal_id, widget_session_id, expires_at)
     VALUES ($1, $2, $3, $4, 'widget', 'kb_search', '{"query": "acme"}'::jsonb, 'widget:anonymous', $5, now() + interval '1 hour')`,
    [a.tenant, approvalId, randomUUID(), createHash('sha256').update(randomBytes(24).toString('base64url'), 'utf8').digest('hex'), sessionId],
  );
  return approvalId;
}

let parked: Promise<{ token: string; approvalId: string }> | undefined;
/**
 * One parked tool call of A, written as the MCP channel parks one (kb_parked_tool_calls with the
 * token's SHA-256), so the decide and read routes meet a real row of A.
 */
function parkedCallOfA(a: TenantA): Promise<{ token: string; approvalId: string }> {
  parked ??= (async () => {
    const token = randomBytes(24).toString('base64url');
    const approvalId = randomUUID();
    await a.db.query(
      `INSERT INTO kb_parked_tool_calls (tenant_id, approval_id, run_id, token_hash, channel, tool, arguments, principal_id, user_id, expires_at)
       VALUES ($1, $2, $3, $4, 'mcp', 'kb-recent-changes', '{"limit": 1}'::jsonb, $5, $6, now() + interval '1 hour')`,
      [a.tenant, approvalId, randomUUID(), createHash('sha256').update(token, 'utf8').digest('hex'), `user:${a.super.id}`, a.super.id],
    );
    return { token, approvalId };
  })();
  return parked;
}
