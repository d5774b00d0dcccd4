import { DataSource } from 'typeorm';
import { KbClient } from './kb-fixtures';

/** One call to the public widget API with the headers a browser or a host's server would send. */
export async function widgetCall(
  baseUrl: string,
  method: string,
  path: string,
  o: { key?: string; origin?: string; bearer?: string; body?: unknown; ip?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
  if (o.key) headers['x-widget-key'] = o.key;
  if (o.origin) headers['origin'] = o.origin;
  if (o.bearer) headers['authorization'] = `Bearer ${o.bearer}`;
  // Each test speaks from its own client address (trusted from loopback), so throttles do not cross tests.
  headers['x-forwarded-for'] = o.ip ?? '10.9.9.9';
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(baseUrl + path, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: (text ? JSON.parse(text) : null) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Ingests markdown documents into a project through the API and waits until the worker indexed them. */
export async function ingestAndWait(baseUrl: string, db: DataSource, token: string, projectKey: string, docs: Array<{ source_path: string; content: string }>): Promise<void> {
  const r = await new KbClient(baseUrl).call('POST', '/api/kb/ingest', { token, body: { documents: docs.map((d) => ({ ...d, project_key: projectKey })) } });
  if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${JSON.stringify(r.body)}`);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE project_key = $1 AND status = 'indexed'`, [projectKey]);
    if (n >= docs.length) return;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${docs.length} documents of ${projectKey} were indexed`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

export const REFUND_POLICY = `# Refund policy

Customers can request a refund within thirty days of purchase. Refunds are paid back to the original payment card within five business days.

## Exceptions

Gift cards and downloadable software licences cannot be refunded once activated.
`;

export const SHIPPING = `# Shipping times

Parcels ship from the warehouse within two business days. International delivery takes up to ten business days.
`;
