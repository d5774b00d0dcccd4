// Shared by the knowledge-base benchmarks: a migrated kb database, kb-api (and its worker) from
// dist/, a user and a bearer token for it. Traffic only ever goes to 127.0.0.1.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { root, startDist, waitReady } from './lib.mjs';

const require = createRequire(import.meta.url);
const { TestJwksIssuer } = require('@platform/testing');
const { PasswordHasher } = require('@platform/crypto');

const serverUrl = () => process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function dropDatabase(database) {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
}

/** kb-api's environment for a benchmark: `database` for its own and the guardrails tables, fresh keys, the extractive chat. */
export function kbApiEnv(database, port, issuer) {
  const key = () => randomBytes(32).toString('base64');
  return {
    DATABASE_URL: serverUrl(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `kb-bench-${randomBytes(3).toString('hex')}`,
    DATABASE_NAME: database,
    KB_GUARDRAILS_DATABASE_NAME: database,
    PORT: String(port),
    WORKER_HEALTH_PORT: String(port + 1),
    IAM_JWKS_URL: issuer.jwksUrl,
    IAM_ISSUER: issuer.issuer,
    CRYPTO_KEYRING: `b1:${key()}`,
    SECRET_PEPPERS: `p1:${key()}`,
    KB_STORAGE_PATH: mkdtempSync(path.join(tmpdir(), 'kb-bench-')),
    KB_CHAT_PROVIDER: 'none',
  };
}

export async function kbEnvironment(database, port) {
  const issuer = await new TestJwksIssuer().start();
  await dropDatabase(database);
  const env = kbApiEnv(database, port, issuer);
  const migrate = spawnSync(process.execPath, [path.join(root, 'dist/apps/kb-api/cli.js'), 'migrate'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(migrate.stderr || migrate.stdout);
  const url = new URL(serverUrl());
  url.pathname = `/${database}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  return { env, db, issuer, baseUrl: `http://127.0.0.1:${port}` };
}

export async function startApi(env, baseUrl) {
  const api = startDist('kb-api', 'main.js', env);
  await waitReady(`${baseUrl}/health/ready`, 60_000);
  return api;
}

/**
 * The simulated users' HTTP client: POSTs a JSON body over kept-alive connections (at most `users` of them) and answers
 * the status and the whole body; a request without an answer for `timeoutMs` fails. node:http rather than fetch: the
 * users share the two cores with kb-api and Postgres, and fetch cost them about three times the CPU per request
 * (docs/benchmarks.md).
 */
export function jsonPoster(baseUrl, users, timeoutMs = 60_000) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: users });
  const { hostname, port } = new URL(baseUrl);
  return (route, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body));
      const request = http.request(
        { agent, hostname, port, path: route, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers } },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        },
      );
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer from ${route} within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(payload);
    });
}

/** A user with the admin role, straight in the database, and a personal token for it. */
export async function tokenFor(db, baseUrl) {
  const email = 'bench@example.com';
  const password = 'correct horse battery staple';
  await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('default', 'default') ON CONFLICT DO NOTHING`);
  const hash = await new PasswordHasher({ memoryCost: 4096, timeCost: 1 }).hash(password);
  const { rows } = await db.query(`INSERT INTO kb_users (tenant_id, name, email, email_key, password_hash, active) VALUES ('default', 'bench', $1, $1, $2, true) RETURNING id`, [email, hash]);
  await db.query(`INSERT INTO kb_user_roles (tenant_id, user_id, role) VALUES ('default', $1, 'admin')`, [rows[0].id]);
  const r = await fetch(`${baseUrl}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = await r.json();
  if (!body.token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.token;
}

/**
 * Rows by which a tenant's BM25 statistics (kb_term_stats, kb_chunk_totals) differ from a count from
 * scratch over its live chunks: both 0 when the triggers kept them exact.
 */
export async function termStatsDrift(db, tenantId) {
  const { rows } = await db.query(
    `WITH fresh AS (
       SELECT c.language, u.lexeme, count(*)::int AS df
         FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL, unnest(c.tsv) u
        WHERE c.tenant_id = $1 GROUP BY 1, 2),
     kept AS (SELECT language, lexeme, df FROM kb_term_stats WHERE tenant_id = $1),
     fresh_totals AS (
       SELECT c.language, count(*)::bigint AS chunks, sum(kb_tsv_tokens(c.tsv))::bigint AS tokens
         FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id AND d.deleted_at IS NULL
        WHERE c.tenant_id = $1 GROUP BY 1),
     kept_totals AS (SELECT language, chunks, tokens FROM kb_chunk_totals WHERE tenant_id = $1 AND chunks <> 0)
     SELECT (SELECT count(*) FROM ((SELECT * FROM fresh EXCEPT SELECT * FROM kept) UNION ALL (SELECT * FROM kept EXCEPT SELECT * FROM fresh)) x)::int AS terms,
            (SELECT count(*) FROM ((SELECT * FROM fresh_totals EXCEPT SELECT * FROM kept_totals) UNION ALL (SELECT * FROM kept_totals EXCEPT SELECT * FROM fresh_totals)) x)::int AS totals`,
    [tenantId],
  );
  return rows[0];
}

export const percentile = (sorted, q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
