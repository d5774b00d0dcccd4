// Grounded chat over 100,000 chunks: kb-api from dist/ with the default (extractive) provider, the
// chunks seeded in SQL from the installed packages' documentation (the retrieval evaluation's
// corpus, chunked by the real chunker, copied into several projects until the count is reached),
// then 10 users asking the evaluation's questions in a closed loop for a fixed time.
// Copies of one corpus flatter term statistics and caches: kb-retrieve.bench.mjs measures retrieval and chat
// over 100,000 distinct chunks instead.
//   npm run build && node -r ./tools/swc-register.cjs tools/bench/kb-chat.bench.mjs [--chunks 100000] [--users 10] [--seconds 30] [--database kb_chat_bench] [--port 3930]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { stop } from './lib.mjs';
import { kbEnvironment, percentile, startApi, tokenFor } from './kb-bench-support.mjs';

const require = createRequire(import.meta.url);
const { loadCorpus, loadQuestions } = require('../../apps/kb-api/eval/retrieval-eval.ts');
const { chunkMarkdown } = require('../../apps/kb-api/src/app/ingest/chunker.ts');
const { markdownTitle } = require('../../apps/kb-api/src/app/ingest/convert.ts');
const { detectLanguage } = require('../../apps/kb-api/src/app/ingest/language.ts');
const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    users: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '30' },
    // Another run on the same Postgres server and machine needs its own database and port.
    database: { type: 'string', default: 'kb_chat_bench' },
    port: { type: 'string', default: '3930' },
  },
});

const { env, db, issuer, baseUrl } = await kbEnvironment(values.database, Number(values.port));
const corpus = loadCorpus().map((d) => ({ ...d, title: markdownTitle(d.content) ?? d.key, language: detectLanguage(d.content), chunks: chunkMarkdown(d.content) }));
const perCopy = corpus.reduce((n, d) => n + d.chunks.length, 0);
const copies = Math.ceil(Number(values.chunks) / perCopy);
const seedStarted = performance.now();
await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('default', 'default') ON CONFLICT DO NOTHING`);
for (let copy = 0; copy < copies; copy++) {
  const project = `deps-${copy}`;
  await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('default', $1, $1) ON CONFLICT DO NOTHING`, [project]);
  for (const d of corpus) {
    const { rows } = await db.query(
      `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, language, status, content_hash, pending_hash, chunk_count, indexed_at)
       VALUES ('default', $1, $2, $3, $4, 'text/markdown', 'markdown', $2, $5::regconfig, 'indexed', $6, $6, $7, now()) RETURNING id`,
      [project, d.key, d.title, d.key.replace(/[^a-z0-9]+/gi, '-').toLowerCase(), d.language, `seed-${copy}-${d.key}`, d.chunks.length],
    );
    const c = d.chunks;
    await db.query(
      `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title)
       SELECT 'default', $1, t.ord, t.heading_path, t.text, encode(sha256(convert_to(t.text, 'UTF8')), 'hex'), $2::regconfig, $3
         FROM unnest($4::int[], $5::text[], $6::text[]) AS t(ord, heading_path, text)`,
      [rows[0].id, d.language, d.title, c.map((x) => x.ord), c.map((x) => x.heading_path), c.map((x) => x.text)],
    );
  }
}
await db.query('VACUUM ANALYZE kb_chunks');
await db.query('ANALYZE kb_documents');
const [{ n: chunks }] = (await db.query('SELECT count(*)::int AS n FROM kb_chunks')).rows;
const seedSeconds = (performance.now() - seedStarted) / 1000;

const api = await startApi(env, baseUrl);
try {
  const token = await tokenFor(db, baseUrl);
  const { answerable, unanswerable } = loadQuestions();
  const questions = [...answerable, ...unanswerable].map((q) => q.question);
  const ask = async (question) => {
    const started = performance.now();
    const r = await fetch(`${baseUrl}/api/kb/chat`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ question }) });
    const body = await r.json();
    return { ms: performance.now() - started, ok: r.status === 200, refused: body.refusal_reason !== null };
  };
  // Warm-up: every question once, sequentially (connection pools, term statistics cache).
  for (const q of questions) await ask(q);
  const samples = [];
  let next = 0;
  let errors = 0;
  let refusals = 0;
  const deadline = Date.now() + Number(values.seconds) * 1000;
  const user = async (u) => {
    for (let i = u; Date.now() < deadline; i++) {
      const r = await ask(questions[(next++ * 7 + u) % questions.length]);
      samples.push(r.ms);
      if (!r.ok) errors++;
      if (r.refused) refusals++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Number(values.users) }, (_, u) => user(u)));
  const elapsed = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  process.stdout.write(
    JSON.stringify(
      { chunks, seed_seconds: Math.round(seedSeconds), users: Number(values.users), requests: samples.length, requests_per_sec: Math.round(samples.length / elapsed), p50_ms: percentile(samples, 0.5), p95_ms: percentile(samples, 0.95), p99_ms: percentile(samples, 0.99), errors, refusals },
      null,
      2,
    ) + '\n',
  );
} finally {
  await stop(api);
  await db.end();
  await issuer.stop();
}
