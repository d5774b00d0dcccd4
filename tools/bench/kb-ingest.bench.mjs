// Ingest end to end: kb-api and its worker from dist/, documents of about 5 KB of markdown POSTed to
// /api/kb/ingest in batches of 100 (4 batches in flight), timed from the first request until the
// worker has indexed every document (polled in the database).
//   npm run build && node -r ./tools/swc-register.cjs tools/bench/kb-ingest.bench.mjs [--documents 2000]
import { parseArgs } from 'node:util';
import { startDist, stop } from './lib.mjs';
import { kbEnvironment, startApi, tokenFor } from './kb-bench-support.mjs';

const { values } = parseArgs({ options: { documents: { type: 'string', default: '2000' } } });
const total = Number(values.documents);
const WORDS = 'ingest worker queue chunk heading token index tenant project signing rotation cache latency retrieval answer citation policy refund invoice schedule'.split(' ');

/** A markdown document of about 5 KB with a title, three sections and varied words. */
function documentText(n) {
  const para = (s) => Array.from({ length: 70 }, (_, i) => WORDS[(n * 7 + s * 13 + i * 3) % WORDS.length]).join(' ') + '.';
  const sections = [1, 2, 3].map((s) => `## Section ${s} of note ${n}\n\n${para(s)}\n\n${para(s + 5)}\n\n${para(s + 9)}`);
  return `# Bench note ${n}\n\nIntroduction to note ${n}: ${para(0)}\n\n${sections.join('\n\n')}\n`;
}

const { env, db, issuer, baseUrl } = await kbEnvironment('kb_ingest_bench', 3940);
const api = await startApi(env, baseUrl);
const worker = startDist('kb-api', 'worker.js', env);
try {
  const token = await tokenFor(db, baseUrl);
  const docs = Array.from({ length: total }, (_, n) => ({ project_key: 'bench', source_path: `notes/note-${n}.md`, content: documentText(n) }));
  const bytes = docs.reduce((s, d) => s + Buffer.byteLength(d.content), 0);
  const batches = [];
  for (let i = 0; i < docs.length; i += 100) batches.push(docs.slice(i, i + 100));
  const started = performance.now();
  let next = 0;
  const post = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const r = await fetch(`${baseUrl}/api/kb/ingest`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ documents: batch }) });
      if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${await r.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, post));
  const acceptedSeconds = (performance.now() - started) / 1000;
  const deadline = Date.now() + 600_000;
  let indexed = 0;
  while (indexed < total && Date.now() < deadline) {
    indexed = (await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`)).rows[0].n;
    if (indexed < total) await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const [{ n: chunks }] = (await db.query('SELECT count(*)::int AS n FROM kb_chunks')).rows;
  process.stdout.write(
    JSON.stringify({ documents: total, indexed, chunks, mean_document_bytes: Math.round(bytes / total), accepted_seconds: +acceptedSeconds.toFixed(2), seconds: +seconds.toFixed(2), documents_per_sec: Math.round(indexed / seconds) }, null, 2) + '\n',
  );
} finally {
  await stop(worker);
  await stop(api);
  await db.end();
  await issuer.stop();
}
