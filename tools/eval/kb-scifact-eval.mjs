// Knowledge-base retrieval on BEIR SciFact, end to end through the HTTP API: kb-api and its worker
// start in this process against a throwaway database, the abstracts are ingested into a throwaway
// tenant with POST /api/kb/ingest (the worker indexes them), then every train claim goes to
// POST /api/kb/retrieve (nDCG@10, Recall@100, MRR@10 by document) and to POST /api/kb/chat
// (whether it cites a relevant abstract, whether it refuses).
//   node -r ./tools/swc-register.cjs tools/eval/kb-scifact-eval.mjs [--data <dir>] [--no-chat] [--write] [--json]
// --data is the folder holding corpus.jsonl.gz, queries-train.jsonl and qrels-train.tsv (default:
// ../shared/eval/scifact next to the repository). The claims are split by a fixed hash of their id
// into a dev part (tune on it) and a held-out part (never tuned on); both are reported.
// --write puts the report into docs/kb-retrieval-eval.md between its SciFact markers.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(root, '..', 'shared', 'eval', 'scifact') },
    chat: { type: 'boolean', default: true },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '4' },
  },
  allowNegative: true,
});

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
const { scifactSplit, ndcgAt, recallAt, reciprocalRankAt } = require('./scifact-metrics.cjs');
const { startWorker } = require('@platform/runtime');
const { startKb } = require('../../apps/kb-api/test/kb-test-env.ts');
const { createUser, KbClient } = require('../../apps/kb-api/test/kb-fixtures.ts');

const REPORT_PATH = join(root, 'docs', 'kb-retrieval-eval.md');
const BEGIN = '<!-- scifact:begin -->';
const END = '<!-- scifact:end -->';
const COMMAND = 'node -r ./tools/swc-register.cjs tools/eval/kb-scifact-eval.mjs --write';
const TENANT = `scifact-${createHash('sha256').update(String(Date.now())).digest('hex').slice(0, 8)}`;
const PROJECT = 'scifact';
const BATCH = 100;
const pathOf = (corpusId) => `abstracts/${corpusId}.md`;

// ---- the data: read from the folder given, never needed at run time by the product ----
const dataDir = resolve(values.data);
for (const f of ['corpus.jsonl.gz', 'queries-train.jsonl', 'qrels-train.tsv']) {
  if (!existsSync(join(dataDir, f))) throw new Error(`${join(dataDir, f)} is missing: pass the SciFact folder with --data`);
}
const jsonl = (text) => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const corpus = jsonl(gunzipSync(readFileSync(join(dataDir, 'corpus.jsonl.gz'))).toString('utf8'));
const claims = jsonl(readFileSync(join(dataDir, 'queries-train.jsonl'), 'utf8'));
const qrels = new Map();
for (const line of readFileSync(join(dataDir, 'qrels-train.tsv'), 'utf8').split('\n').slice(1)) {
  const [q, d, s] = line.trim().split('\t');
  if (!q || Number(s) <= 0) continue;
  if (!qrels.has(q)) qrels.set(q, new Set());
  qrels.get(q).add(d);
}
const judged = claims.filter((c) => qrels.has(c._id));

// ---- kb-api and its worker, a throwaway tenant and a reader in it ----
const started = performance.now();
const kb = await startKb({ LOG_LEVEL: 'error' });
const worker = await startWorker(require('../../apps/kb-api/src/worker.module.ts').WorkerModule);
const client = new KbClient(kb.svc.url);
await createUser(kb.db, { email: 'eval@scifact.test', tenant: TENANT, roles: ['viewer'] });
const { token } = (await client.call('POST', '/api/auth/token', { body: { email: 'eval@scifact.test', password: 'correct horse battery staple' } })).body;
const call = async (path, body) => {
  for (let attempt = 0; ; attempt++) {
    const r = await client.call('POST', path, { token, body });
    if (r.status !== 429 || attempt > 20) return r;
    await new Promise((res) => setTimeout(res, 1000 * Number(r.headers.get('retry-after') ?? 1)));
  }
};

let report;
try {
  // ---- ingest through the API, then wait for the worker ----
  const ingestStarted = performance.now();
  for (let i = 0; i < corpus.length; i += BATCH) {
    const documents = corpus.slice(i, i + BATCH).map((d) => ({
      project_key: PROJECT,
      source_path: pathOf(d._id),
      content: `# ${d.title.replace(/\s+/g, ' ').trim() || d._id}\n\n${d.text}\n`,
    }));
    const r = await call('/api/kb/ingest', { documents });
    if (r.status !== 202) throw new Error(`ingest batch ${i / BATCH} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 500)}`);
  }
  for (;;) {
    const [{ indexed, failed }] = await kb.db.query(
      `SELECT count(*) FILTER (WHERE status = 'indexed')::int AS indexed, count(*) FILTER (WHERE status = 'failed')::int AS failed FROM kb_documents WHERE tenant_id = $1`,
      [TENANT],
    );
    if (failed > 0) throw new Error(`${failed} abstracts failed to index`);
    if (indexed === corpus.length) break;
    await new Promise((res) => setTimeout(res, 250));
  }
  const ingestSeconds = (performance.now() - ingestStarted) / 1000;
  const [{ chunks }] = await kb.db.query(`SELECT count(*)::int AS chunks FROM kb_chunks WHERE tenant_id = $1`, [TENANT]);

  // ---- every judged claim through /retrieve and /chat ----
  const outcomes = [];
  let next = 0;
  const work = async () => {
    while (next < judged.length) {
      const claim = judged[next++];
      const relevant = qrels.get(claim._id);
      const r = await call('/api/kb/retrieve', { query: claim.text, top_k: 100 });
      if (r.status !== 200) throw new Error(`retrieve answered ${r.status} for claim ${claim._id}: ${JSON.stringify(r.body)}`);
      const ranked = [];
      for (const hit of r.body.data) {
        const id = /^abstracts\/(.+)\.md$/.exec(hit.source_path)?.[1];
        if (id && !ranked.includes(id)) ranked.push(id);
      }
      const outcome = {
        id: claim._id,
        split: scifactSplit(claim._id),
        ndcg10: ndcgAt(10, ranked, relevant),
        recall100: recallAt(100, ranked, relevant),
        mrr10: reciprocalRankAt(10, ranked, relevant),
        retrieveMs: r.body.meta.latency_ms,
      };
      if (values.chat) {
        const a = await call('/api/kb/chat', { question: claim.text });
        if (a.status !== 200) throw new Error(`chat answered ${a.status} for claim ${claim._id}: ${JSON.stringify(a.body)}`);
        outcome.refusal = a.body.refusal_reason;
        outcome.citedRelevant = a.body.citations.some((c) => relevant.has(/^abstracts\/(.+)\.md$/.exec(c.source_path)?.[1]));
        outcome.chatMs = a.body.meta.latency_ms;
      }
      outcomes.push(outcome);
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, work));
  report = summarise(outcomes, { documents: corpus.length, chunks, ingestSeconds });
} finally {
  await worker.close();
  await kb.stop();
}
report.seconds = Math.round((performance.now() - started) / 1000);

function summarise(outcomes, facts) {
  const part = (list) => {
    const mean = (f) => (list.length ? list.reduce((s, o) => s + f(o), 0) / list.length : 0);
    const out = { claims: list.length, ndcg10: mean((o) => o.ndcg10), recall100: mean((o) => o.recall100), mrr10: mean((o) => o.mrr10) };
    if (values.chat) {
      out.citationHitRate = mean((o) => (o.citedRelevant ? 1 : 0));
      out.refusalRate = mean((o) => (o.refusal !== null ? 1 : 0));
      out.refusals = Object.fromEntries([...new Set(list.map((o) => o.refusal).filter(Boolean))].map((r) => [r, list.filter((o) => o.refusal === r).length]));
    }
    return out;
  };
  const pctl = (xs, q) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : 0;
  };
  return {
    ...facts,
    ingestDocsPerSecond: facts.documents / facts.ingestSeconds,
    dev: part(outcomes.filter((o) => o.split === 'dev')),
    heldOut: part(outcomes.filter((o) => o.split === 'held-out')),
    all: part(outcomes),
    retrieveP50Ms: pctl(outcomes.map((o) => o.retrieveMs), 0.5),
    retrieveP95Ms: pctl(outcomes.map((o) => o.retrieveMs), 0.95),
    ...(values.chat ? { chatP50Ms: pctl(outcomes.map((o) => o.chatMs), 0.5), chatP95Ms: pctl(outcomes.map((o) => o.chatMs), 0.95) } : {}),
  };
}

const num = (x) => x.toFixed(3);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const row = (name, p) =>
  `| ${name} | ${p.claims} | ${num(p.ndcg10)} | ${num(p.recall100)} | ${num(p.mrr10)} | ${values.chat ? `${pct(p.citationHitRate)} | ${pct(p.refusalRate)}` : '— | —'} |`;
const section = `${BEGIN}
## BEIR SciFact (public data, held-out split)

Generated by \`${COMMAND}\` (the SciFact folder is taken from \`--data\`, by default
\`../shared/eval/scifact\` beside the repository; nothing in the product reads it). kb-api and its
worker run in the command's process against a throwaway database: the ${report.documents} abstracts are
ingested into a throwaway tenant through \`POST /api/kb/ingest\` (${report.chunks} chunks, ${report.ingestDocsPerSecond.toFixed(0)} documents/s end to end
on the shared 2-core machine), then each of the ${report.all.claims} train claims goes to \`POST /api/kb/retrieve\`
(\`top_k\` 100; documents ranked by their first chunk) and to \`POST /api/kb/chat\` (default
settings, extractive answers, no embeddings). The claims are split by a fixed hash of their id
(\`scifactSplit\` in \`tools/eval/scifact-metrics.cjs\`): BM25's parameters and the chat's refusal
rule were chosen on the dev part only (the rule also on the platform's odd-id questions above); the
held-out part was never looked at while tuning. These are SciFact's train claims; its test claims
are measured separately.

The chat refused about a fifth of the claims although each has a relevant abstract (23.5% dev,
19.9% held out, citing a relevant abstract for 56.6% / 64.3%). Loosening the old rule (coverage of
the whole weight 0.45, no missed word carrying 25%) breaks the platform's unanswerable questions:
0.35 / 0.35 refuse 6.4% of the dev claims but answer 6 of the 18 odd-id ones. What was tried, each
replayed on the dev claims and the odd-id questions with \`kb-scifact-tune.mjs --grounding-grid\`:
weighing a missed word the knowledge base never uses (df 0) differently from one it uses elsewhere
(either way round: SciFact's claims carry typos and identifiers no abstract spells the same, "fox0",
"g94p", so unknown words are not rarer in its answerable claims than in the unanswerable questions;
no setting below 19% of dev claims refused); matching a missed word by edit distance or as two
joined words in the chunk (6 dev claims gained); counting a missed word as found when another
candidate chunk holds it with the chunk's rarest word (no gain). Kept: the unknown words' summed
share of the question's weight must stay under 30% (all are missed by every chunk, so one test of
the question), coverage is measured over the weight of the words the knowledge base does use, and
a chunk must reach 0.2 of the query's BM25 ceiling. Tolerating a missed known word up to 30% of the
weight (16% of dev claims refused) was chosen first and answered an even-id unanswerable question
(a programming language the documents name only in passing) when the held-out questions were
checked; it was set back to 25%, and a 35% unknown share answered one in the test suite's corpus
subset, so 30% was kept: those two choices were made after looking at held-out questions. The
target (at most 5% refused, at least 80% citing a relevant abstract) is not met: about 78% of the
dev claims have a relevant abstract among the chat's eight primary chunks at all, and below about
16% refused every setting answered some unanswerable question.

| claims | n | nDCG@10 | Recall@100 | MRR@10 | chat cites a relevant abstract | chat refuses |
|---|---|---|---|---|---|---|
${row('dev (tuned on)', report.dev)}
${row('held out', report.heldOut)}
${row('all train claims', report.all)}

kb-api ranks from its in-memory lexical index (\`docs/kb-api.md\`, "Ranking in memory"): BM25 over
every chunk holding a query word rather than over a prefilter of at most 400 found by the rarest
words. Against the SQL ranking (the same command at 1fff584): nDCG@10 0.682 / 0.716 (dev / held
out; was 0.682 / 0.714), Recall@100 0.908 / 0.940 (was 0.867 / 0.893), MRR@10 0.652 / 0.687 (was
0.653 / 0.685); the chat's citation and refusal rates moved by less than half a point. No parameter
was changed for it.

Before BM25 (at e20b63f: IDF-weighted term coverage plus \`ts_rank_cd\` over the same candidates),
the same command gave nDCG@10 0.636 dev / 0.668 held out (Recall@100 0.867 / 0.893, MRR@10 0.601 /
0.628); the chat cited a relevant abstract for 57.1% / 63.3% of the claims and refused 23.2% /
20.4% (\`no_relevant_context\`); ingest 230 documents/s.

BM25's parameters were searched on the dev claims alone with
\`node -r ./tools/swc-register.cjs tools/eval/kb-scifact-tune.mjs --grid '[…]'\` (dev nDCG@10, same
candidates): k1 1.2 / b 0.75 0.675; k1 1.5 / b 0.8 0.680; k1 1.2 / b 0.9 0.675; k1 0.9 / b 0.75
0.669; k1 0.9 / b 0.4 0.668; k1 2 / b 0.8 0.680; k1 2.5 / b 0.85 0.678; **k1 1.8 / b 0.75 0.682**
(kept); title × 1 and heading × 1 instead of × 2 and × 1.5: 0.672; title × 3, heading × 1: 0.674;
more finder terms (8 or 10) and a larger prefilter: no gain; a bonus for query word pairs found
side by side (0.5 or 1 × the pair's IDF): 0.671 / 0.664, dropped. The differences between the
better settings are within noise for 422 claims.

Published nDCG@10 on SciFact's test claims, for orientation: BM25 0.665–0.680; Postgres's
\`ts_rank\` 0.569; BM25 fused with a dense retriever about 0.74. Latency here (4 clients, the
machine shared with other work): retrieve p50 ${report.retrieveP50Ms} ms, p95 ${report.retrieveP95Ms} ms${values.chat ? `; chat p50 ${report.chatP50Ms} ms, p95 ${report.chatP95Ms} ms` : ''}.
${END}`;

if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
else process.stdout.write(section + '\n');
if (values.write) {
  const doc = readFileSync(REPORT_PATH, 'utf8');
  const at = doc.indexOf(BEGIN);
  const updated = at >= 0 ? doc.slice(0, at) + section + doc.slice(doc.indexOf(END) + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(REPORT_PATH, updated);
}
process.exit(0);
