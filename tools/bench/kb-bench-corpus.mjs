// A benchmark corpus of distinct real text, read offline: BEIR SciFact's abstracts, the markdown
// shipped inside node_modules (READMEs, changelogs, docs) and the system's English manual pages
// (roff turned into markdown with the page's sections as headings). Each document is chunked by
// kb-api's own chunker and every chunk whose text was already seen (sha-256) is dropped, so no two
// chunks are the same text: a corpus copied into many projects would flatter the term statistics
// (every term's document frequency multiplied alike) and the caches. Queries come from the same
// sources without being chunk text: SciFact's claims, the retrieval evaluation's hand-written
// questions, and a question made from each manual page's one-line summary.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root } from './lib.mjs';

const require = createRequire(import.meta.url);
const { chunkMarkdown } = require('../../apps/kb-api/src/app/ingest/chunker.ts');
const { markdownTitle } = require('../../apps/kb-api/src/app/ingest/convert.ts');
const { detectLanguage } = require('../../apps/kb-api/src/app/ingest/language.ts');
const { loadQuestions } = require('../../apps/kb-api/eval/retrieval-eval.ts');

const jsonl = (text) => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** SciFact's abstracts as kb-scifact-eval ingests them: the title as a heading, then the abstract. */
function* scifactDocuments(dir) {
  for (const d of jsonl(gunzipSync(readFileSync(path.join(dir, 'corpus.jsonl.gz'))).toString('utf8'))) {
    yield { project: 'scifact', key: `abstracts/${d._id}.md`, content: `# ${d.title.replace(/\s+/g, ' ').trim() || d._id}\n\n${d.text}\n` };
  }
}

/** Every markdown file inside node_modules, in path order (symlinked folders are not followed, so none is read twice). */
function* packageDocuments() {
  const files = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.(md|markdown)$/i.test(e.name)) files.push(p);
    }
  };
  const modules = path.join(root, 'node_modules');
  walk(modules);
  for (const file of files.sort()) yield { project: 'packages', key: path.relative(modules, file), content: readFileSync(file, 'utf8') };
}

const ROFF_GLYPHS = { em: '—', en: '–', aq: "'", dq: '"', lq: '"', rq: '"', oq: "'", cq: "'", bu: '•', co: '©', rg: '®', tm: '™', mu: '×', '>=': '≥', '<=': '≤', '->': '→', '<-': '←', hy: '-', ti: '~', ha: '^', rs: '\\', ga: '`', bv: '|' };

/** roff escapes of one line of text to plain text: fonts and sizes dropped, glyphs written out. */
function roffText(line) {
  return line
    .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\s[+-]?(?:\d+|\[[^\]]*\]|\(\d\d)/g, '')
    .replace(/\\\((..)/g, (_, g) => ROFF_GLYPHS[g] ?? '')
    .replace(/\\\[([^\]]*)\]/g, (_, g) => ROFF_GLYPHS[g] ?? '')
    .replace(/\\\*(?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\[nk](?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\[-e]/g, (m) => (m === '\\-' ? '-' : '\\'))
    .replace(/\\[&,/^|:%cdu{}]/g, '')
    .replace(/\\[ 0~]/g, ' ')
    .replace(/\\(.)/g, '$1');
}

const FONT_MACROS = new Set(['B', 'I', 'BR', 'RB', 'IR', 'RI', 'BI', 'IB', 'SM', 'SB']);

/** A manual page's roff source as markdown: .TH the title, .SH and .SS headings, text lines kept, other requests dropped. */
export function manToMarkdown(source) {
  const out = [];
  let skipping = false;
  let table = false;
  for (const raw of source.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (skipping) {
      if (/^\.\.\s*$/.test(line)) skipping = false;
      continue;
    }
    if (/^\.TS\b/.test(line)) table = true;
    if (table) {
      if (/^\.TE\b/.test(line)) table = false;
      continue;
    }
    if (/^['.]\s*\\"/.test(line) || /^\.\s*$/.test(line)) continue;
    const request = /^[.']\s*([A-Za-z][A-Za-z0-9]*)\s*(.*)$/.exec(line);
    if (!request) {
      // Text; a line that would read as a markdown heading is indented past the chunker's heading rule.
      const text = roffText(line);
      out.push(/^\s{0,3}#/.test(text) ? `    ${text}` : text);
      continue;
    }
    const [, name, rest] = request;
    const args = () => roffText(rest).replace(/"/g, '').trim();
    if (/^(de|am|ig)1?$/.test(name)) skipping = true;
    else if (name === 'TH') out.push(`# ${args().split(/\s+/).slice(0, 2).join('(')})`.replace(/\($/, ''), '');
    else if (name === 'SH' || name === 'Sh') out.push('', `## ${args()}`, '');
    else if (name === 'SS' || name === 'Ss') out.push('', `### ${args()}`, '');
    else if (FONT_MACROS.has(name)) out.push(args());
    else if (['PP', 'LP', 'P', 'TP', 'IP', 'sp', 'Pp'].includes(name)) out.push('', ...(name === 'IP' && args() ? [args()] : []));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

/**
 * The English manual pages (sections 1–8) under `dir`; pages that only point at another page (.so)
 * are skipped. Pages of a generated family (one page per subcommand of one large CLI: a name prefix
 * shared by FAMILY pages or more) come after all the others, so they only fill what the rest leaves.
 */
const FAMILY = 500;
function* manualDocuments(dir) {
  if (!existsSync(dir)) return;
  const pages = [];
  for (const section of readdirSync(dir).filter((s) => /^man[1-8]$/.test(s)).sort()) {
    for (const file of readdirSync(path.join(dir, section)).sort()) pages.push({ section, file, family: file.split(/[_.-]/)[0] });
  }
  const size = new Map();
  for (const p of pages) size.set(p.family, (size.get(p.family) ?? 0) + 1);
  const generated = (p) => (size.get(p.family) >= FAMILY ? 1 : 0);
  for (const { section, file } of [...pages].sort((a, b) => generated(a) - generated(b))) {
    let source;
    try {
      const raw = readFileSync(path.join(dir, section, file));
      source = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    } catch {
      continue; // a dangling link
    }
    if (/^\.so\s/m.test(source.slice(0, 200))) continue;
    yield { project: 'manpages', key: `${section}/${file.replace(/\.gz$/, '')}`, content: manToMarkdown(source) };
  }
}

/**
 * Documents of at least `chunks` distinct chunks in all (SciFact first, then the packages' markdown,
 * then manual pages, each whole), every chunk text seen once. Each document carries the chunks kb-api
 * would make of it, less the ones whose text an earlier chunk already had.
 */
export function buildCorpus({ scifact, manDir, chunks: wanted }) {
  const seen = new Set();
  const documents = [];
  let total = 0;
  const sources = { scifact: 0, packages: 0, manpages: 0 };
  const duplicates = { chunks: 0 };
  for (const source of [scifactDocuments(scifact), packageDocuments(), manualDocuments(manDir)]) {
    for (const d of source) {
      if (total >= wanted) return { documents, chunks: total, sources, duplicates: duplicates.chunks };
      const kept = [];
      for (const c of chunkMarkdown(d.content)) {
        const hash = createHash('sha256').update(c.text).digest('hex');
        if (seen.has(hash)) {
          duplicates.chunks++;
          continue;
        }
        seen.add(hash);
        kept.push({ ord: kept.length, heading_path: c.heading_path, text: c.text, hash });
      }
      if (kept.length === 0) continue;
      documents.push({ ...d, title: markdownTitle(d.content) ?? d.key, language: detectLanguage(d.content), chunks: kept });
      total += kept.length;
      sources[d.project] += kept.length;
    }
  }
  return { documents, chunks: total, sources, duplicates: duplicates.chunks };
}

const IMPERATIVE = /^(list|print|display|show|create|convert|manage|check|search|remove|delete|copy|move|change|set|get|run|start|stop|make|build|compare|extract|compress|decompress|find|read|write|send|generate|format|update|install|edit|add|query|report|execute|test|view|translate|merge|split|sort|count|verify|sign|encrypt|decrypt|open|close|mount|configure|determine|output|return|allocate|free|wait|control|dump|lock|parse|describe|enable|disable|modify|rename|transform|apply|retrieve|export|import|load|save|fetch|print|scan|monitor|trace|kill|map|join|filter|compute|calculate|validate|initialize|register|install)\b/;

/**
 * Queries that are not chunk text: SciFact's claims, the retrieval evaluation's questions about the
 * packages' docs (answerable and not), and "How do I …?" from the one-line summary of each manual
 * page in the corpus (`ls - list directory contents` becomes "How do I list directory contents?").
 */
export function benchQueries({ scifact, documents }) {
  const claims = jsonl(readFileSync(path.join(scifact, 'queries-train.jsonl'), 'utf8')).map((c) => c.text);
  const { answerable, unanswerable } = loadQuestions();
  const manual = [];
  for (const d of documents) {
    if (d.project !== 'manpages') continue;
    const summary = /^## NAME\s*\n+[^\n]*?\s[-—–]\s+([a-z][^\n.]{10,100})/m.exec(d.content)?.[1]?.trim();
    if (!summary || summary.split(/\s+/).length < 3 || /\s-\s/.test(summary)) continue;
    // "list directory contents" reads as a task, "interface to the X server" as a thing.
    manual.push(IMPERATIVE.test(summary) ? `How do I ${summary}?` : `What is the ${summary}?`);
  }
  return { claims, docQuestions: [...answerable, ...unanswerable].map((q) => q.question), manual: [...new Set(manual)] };
}

/** The three kinds of benchQueries interleaved, so every user of a benchmark sees all three in every stretch of a run. */
export function interleavedQueries({ claims, docQuestions, manual }) {
  const queries = [];
  for (let i = 0; i < Math.max(claims.length, docQuestions.length, manual.length); i++) {
    for (const list of [claims, docQuestions, manual]) if (i < list.length) queries.push(list[i]);
  }
  return queries;
}

/**
 * The command-line options naming the benchmark corpus and the database it is seeded into, shared by
 * every benchmark that seeds (kb-retrieve) or reuses (kb-score, kb-serve-cost) that database.
 */
export const CORPUS_OPTIONS = {
  scifact: { type: 'string' },
  man: { type: 'string', default: '/usr/share/man' },
  chunks: { type: 'string', default: '100000' },
  database: { type: 'string', default: 'kb_retrieve_bench' },
};

/** The corpus and its queries for parsed CORPUS_OPTIONS (the same documents and queries in every benchmark). */
export function corpusAndQueries(values) {
  if (!values.scifact) throw new Error('--scifact <folder holding corpus.jsonl.gz and queries-train.jsonl> is required');
  const corpus = buildCorpus({ scifact: values.scifact, manDir: values.man, chunks: Number(values.chunks) });
  return { corpus, queries: benchQueries({ scifact: values.scifact, documents: corpus.documents }) };
}
