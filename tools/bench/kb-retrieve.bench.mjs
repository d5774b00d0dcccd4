// Ranked retrieval and grounded chat over 100,000 distinct chunks of real text: SciFact's abstracts,
// the markdown inside node_modules and the English manual pages (kb-bench-corpus.mjs), chunked by
// kb-api's chunker, no chunk text twice. The chunks are seeded in SQL into a throwaway database
// (the BM25 statistics triggers run as for any write, and the statistics are checked against a
// count from scratch before anything is timed), then kb-api from dist/ (extractive `none` chat
// provider) serves 10 users in a closed loop: first POST /api/kb/retrieve alone, then
// POST /api/kb/chat alone, each for a fixed time, with SciFact claims, the retrieval evaluation's
// questions and questions made from the manual pages' summaries, interleaved. Each measured phase
// follows an unmeasured one of `--warmup` seconds on the same route with the queries before it (the
// first seconds after boot pay for JIT compilation and first-time caches; 0 measures them too).
//   npm run build && node -r ./tools/swc-register.cjs tools/bench/kb-retrieve.bench.mjs --scifact <folder with corpus.jsonl.gz and queries-train.jsonl>
//     [--man /usr/share/man] [--chunks 100000] [--users 10] [--seconds 30] [--warmup 15] [--database kb_retrieve_bench] [--port 3950] [--keep] [--sql-only] [--processes 1]
// --keep leaves the database in place (for EXPLAIN ANALYZE of the ranking query on it).
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { stop } from './lib.mjs';
import { CORPUS_OPTIONS, corpusAndQueries, interleavedQueries } from './kb-bench-corpus.mjs';
import { dropDatabase, jsonPoster, kbEnvironment, percentile, startApi, termStatsDrift, tokenFor } from './kb-bench-support.mjs';

const { values } = parseArgs({
  options: {
    ...CORPUS_OPTIONS,
    users: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '15' },
    port: { type: 'string', default: '3950' },
    keep: { type: 'boolean', default: false },
    // Every query ranked in SQL (KB_LEXICAL_INDEX_MAX_MB=0): the same build measured without the in-memory index.
    'sql-only': { type: 'boolean', default: false },
    // kb-api as this many processes sharing its port (HTTP_PROCESSES), each with its own in-memory index.
    processes: { type: 'string', default: '1' },
  },
});
const users = Number(values.users);
const load = () => loadavg().map((l) => Math.round(l * 100) / 100);

const { corpus, queries: kinds } = corpusAndQueries(values);
const { claims, docQuestions, manual } = kinds;
const queries = interleavedQueries(kinds);

const { env, db, issuer, baseUrl } = await kbEnvironment(values.database, Number(values.port));
const seedStarted = performance.now();
await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('default', 'default') ON CONFLICT DO NOTHING`);
for (const project of ['scifact', 'packages', 'manpages']) {
  await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('default', $1, $1) ON CONFLICT DO NOTHING`, [project]);
}
// 200 documents a statement, their chunks in one more: the statistics trigger runs once per chunk statement.
for (let i = 0; i < corpus.documents.length; i += 200) {
  const batch = corpus.documents.slice(i, i + 200);
  const { rows } = await db.query(
    `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, language, status, content_hash, pending_hash, chunk_count, indexed_at)
     SELECT 'default', t.project, t.path, t.title, t.slug, 'text/markdown', 'markdown', t.path, t.language::regconfig, 'indexed', t.hash, t.hash, t.chunks, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[]) AS t(project, path, title, slug, language, hash, chunks)
     RETURNING id, project_key, source_path`,
    [
      batch.map((d) => d.project),
      batch.map((d) => d.key),
      batch.map((d) => d.title),
      batch.map((d) => d.key.replace(/[^a-z0-9]+/gi, '-').toLowerCase()),
      batch.map((d) => d.language),
      batch.map((d) => `seed-${d.project}-${d.key}`),
      batch.map((d) => d.chunks.length),
    ],
  );
  const ids = new Map(rows.map((r) => [`${r.project_key}/${r.source_path}`, r.id]));
  const chunks = batch.flatMap((d) => d.chunks.map((c) => ({ ...c, document: ids.get(`${d.project}/${d.key}`), language: d.language, title: d.title })));
  await db.query(
    `INSERT INTO kb_chunks (tenant_id, document_id, ord, heading_path, text, chunk_hash, language, doc_title)
     SELECT 'default', t.document, t.ord, t.heading_path, t.text, t.hash, t.language::regconfig, t.title
       FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(document, ord, heading_path, text, hash, language, title)`,
    [chunks.map((c) => c.document), chunks.map((c) => c.ord), chunks.map((c) => c.heading_path), chunks.map((c) => c.text), chunks.map((c) => c.hash), chunks.map((c) => c.language), chunks.map((c) => c.title)],
  );
}
await db.query('VACUUM ANALYZE kb_chunks');
await db.query('ANALYZE kb_documents');
await db.query('ANALYZE kb_term_stats');
const seedSeconds = (performance.now() - seedStarted) / 1000;
const [{ n: chunkCount, distinct }] = (await db.query(`SELECT count(*)::int AS n, count(DISTINCT md5(text))::int AS distinct FROM kb_chunks WHERE tenant_id = 'default'`)).rows;
const drift = await termStatsDrift(db, 'default');
if (drift.terms !== 0 || drift.totals !== 0) throw new Error(`term statistics differ from a count from scratch: ${JSON.stringify(drift)}`);

if (values['sql-only']) env.KB_LEXICAL_INDEX_MAX_MB = '0';
env.HTTP_PROCESSES = values.processes;
const api = await startApi(env, baseUrl);
let indexLoadSeconds;
try {
  const token = await tokenFor(db, baseUrl);
  const poster = jsonPoster(baseUrl, users);
  const post = async (route, body) => {
    const started = performance.now();
    const r = await poster(route, body, { authorization: `Bearer ${token}` });
    const answer = JSON.parse(r.body.toString('utf8'));
    return { ms: performance.now() - started, status: r.status, answer };
  };
  const routes = {
    retrieve: (query) => post('/api/kb/retrieve', { query }),
    chat: (question) => post('/api/kb/chat', { question }),
  };
  // The in-memory lexical index of the tenant loads in the background from boot (kb-api's lexical-indexes.ts); until it
  // holds every chunk, queries are ranked in SQL. Wait for it, as a deployment's readiness would, and say how long it took.
  const loadStarted = performance.now();
  // Each process holds its own index and answers /metrics for itself: every poll opens a new connection (spread over the
  // processes in turn), and the index counts as loaded once four polls per process in a row saw every chunk.
  let loadedPolls = 0;
  while (!values['sql-only']) {
    const metrics = await (await fetch(`${baseUrl}/metrics`, { headers: { connection: 'close' } })).text();
    const held = Number(/^kb_lexical_index_chunks(?:\{[^}]*\})? (\S+)$/m.exec(metrics)?.[1] ?? 0);
    loadedPolls = held >= chunkCount ? loadedPolls + 1 : 0;
    if (loadedPolls >= 4 * Number(values.processes)) break;
    if (performance.now() - loadStarted > 300_000) throw new Error(`the lexical index holds ${held} of ${chunkCount} chunks after 300 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  indexLoadSeconds = values['sql-only'] ? null : (performance.now() - loadStarted) / 1000;
  // Warm-up, sequential: pools, the synonym cache, the first plans (not the measured queries' pages: they come later in the list).
  for (const q of queries.slice(0, 100)) await routes.retrieve(q);

  /** `users` clients in a closed loop on one route for `seconds`, each taking the next query of the shared list. */
  const phase = async (name, start, seconds = Number(values.seconds)) => {
    const samples = [];
    const server = [];
    const statuses = {};
    let refusals = 0;
    let next = start;
    const loadBefore = load();
    const deadline = Date.now() + seconds * 1000;
    const user = async () => {
      while (Date.now() < deadline) {
        const r = await routes[name](queries[next++ % queries.length]);
        samples.push(r.ms);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (name === 'retrieve' && r.status === 200) server.push(r.answer.meta.latency_ms);
        if (name === 'chat' && r.answer.refusal_reason) refusals++;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: users }, user));
    const elapsed = (performance.now() - started) / 1000;
    samples.sort((a, b) => a - b);
    server.sort((a, b) => a - b);
    return {
      requests: samples.length,
      requests_per_sec: Math.round(samples.length / elapsed),
      p50_ms: percentile(samples, 0.5),
      p95_ms: percentile(samples, 0.95),
      p99_ms: percentile(samples, 0.99),
      ...(server.length ? { server_p50_ms: percentile(server, 0.5), server_p95_ms: percentile(server, 0.95), server_p99_ms: percentile(server, 0.99) } : {}),
      statuses,
      ...(name === 'chat' ? { refusals } : {}),
      load_before: loadBefore,
      load_after: load(),
      next,
    };
  };
  /** An unmeasured phase of --warmup seconds, then the measured one with the queries that follow. */
  const warmedPhase = async (name, start) => phase(name, Number(values.warmup) > 0 ? (await phase(name, start, Number(values.warmup))).next : start);
  const retrieve = await warmedPhase('retrieve', 100);
  // The chat starts where retrieval stopped, so its questions were not just ranked (no warm pages for free), unless the
  // phases together send more requests than there are queries: the list then starts again from its first query.
  const chat = await warmedPhase('chat', retrieve.next);
  delete retrieve.next;
  delete chat.next;
  process.stdout.write(
    JSON.stringify(
      {
        chunks: chunkCount,
        distinct_chunk_texts: distinct,
        chunks_by_source: corpus.sources,
        duplicate_chunks_dropped: corpus.duplicates,
        documents: corpus.documents.length,
        term_stats_exact: true,
        seed_seconds: Math.round(seedSeconds),
        index_load_seconds: indexLoadSeconds === null ? 'no in-memory index (--sql-only)' : Math.round(indexLoadSeconds * 10) / 10,
        queries: { scifact_claims: claims.length, doc_questions: docQuestions.length, manual_questions: manual.length },
        users,
        processes: Number(values.processes),
        seconds: Number(values.seconds),
        warmup_seconds: Number(values.warmup),
        retrieve,
        chat,
      },
      null,
      2,
    ) + '\n',
  );
} finally {
  await stop(api);
  await db.end();
  await issuer.stop();
  if (!values.keep) await dropDatabase(values.database);
}
