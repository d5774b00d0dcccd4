import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDataSourceOptions, migrateDatabase } from '@platform/database';
import { Clock } from '@platform/runtime';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SynonymsRepository } from '../src/app/admin-knowledge/curation/synonyms.repository';
import { LocalDocumentStorage } from '../src/app/ingest/document-storage';
import { DocumentsRepository } from '../src/app/ingest/documents.repository';
import { IndexerService } from '../src/app/ingest/indexer.service';
import { ChunkEmbeddingsRepository } from '../src/app/retrieval/chunk-embeddings.repository';
import { ChunkSearchRepository } from '../src/app/retrieval/chunk-search.repository';
import { LexicalIndexRepository } from '../src/app/retrieval/lexical-index.repository';
import { LexicalIndexes } from '../src/app/retrieval/lexical-indexes';
import { RetrievalResult, RetrievalService } from '../src/app/retrieval/retrieval.service';
import { TermStatsRepository } from '../src/app/retrieval/term-stats.repository';
import { readVectorConfig } from '../src/app/retrieval/vector-config';
import { VectorSearch } from '../src/app/retrieval/vector-search';
import { migrations } from '../src/migrations';

/**
 * The knowledge-base retrieval evaluation: a corpus of the installed dependencies' own markdown
 * documentation (read from node_modules, so it is fixed by the package lock), indexed through the
 * real chunker, language detection and SQL, and a set of questions with the documents that answer
 * them, plus questions nothing in the corpus answers. Shared by the evaluation script and the
 * quality gate in the test suite.
 */

export const EVAL_DIR = __dirname;
const REPO_ROOT = path.resolve(__dirname, '../../..');
const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
/** Shorter files are mostly badges and links; less prose than this is mostly code or tables. */
const MIN_CHARS = 2000;
const MIN_PROSE_WORDS = 250;
const TENANT = 'eval';
const PROJECT = 'deps';

/** Runs one statement on the server's maintenance database (creating or dropping a database). */
async function onServer(serverUrl: string, sql: string): Promise<void> {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export interface CorpusDocument {
  /** `<package>/<path inside the package>`, also the document's source_path. */
  key: string;
  content: string;
}

export interface AnswerableQuestion {
  id: string;
  question: string;
  expected: string[];
}

export interface UnanswerableQuestion {
  id: string;
  question: string;
}

export interface QuestionSet {
  answerable: AnswerableQuestion[];
  unanswerable: UnanswerableQuestion[];
}

/** Words of running text once code blocks, HTML, images, link targets, tables and headings are gone. */
export function proseWords(markdown: string): number {
  const text = markdown
    .replace(/```[\s\S]*?```|~~~[\s\S]*?~~~/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\]\([^)]*\)/g, ']');
  const lines = text.split('\n').filter((l) => !/^\s*(\||#|\t| {4})/.test(l));
  return lines.join(' ').match(/\b[A-Za-z][a-z]{2,}\b/g)?.length ?? 0;
}

/** README.md and docs/*.md of each listed package, in package then path order; unfit files are skipped. */
export function loadCorpus(packagesFile = path.join(EVAL_DIR, 'corpus-packages.json')): CorpusDocument[] {
  const { packages } = JSON.parse(readFileSync(packagesFile, 'utf8')) as { packages: string[] };
  const docs: CorpusDocument[] = [];
  for (const pkg of [...packages].sort()) {
    const dir = path.join(NODE_MODULES, pkg);
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter((f) => /^readme\.md$/i.test(f));
    const docsDir = path.join(dir, 'docs');
    if (existsSync(docsDir) && statSync(docsDir).isDirectory()) files.push(...readdirSync(docsDir).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`));
    for (const file of files.sort()) {
      const content = readFileSync(path.join(dir, file), 'utf8');
      if (content.length >= MIN_CHARS && proseWords(content) >= MIN_PROSE_WORDS) docs.push({ key: `${pkg}/${file}`, content });
    }
  }
  return docs;
}

export function loadQuestions(file = path.join(EVAL_DIR, 'retrieval-questions.json')): QuestionSet {
  const { answerable, unanswerable } = JSON.parse(readFileSync(file, 'utf8')) as QuestionSet;
  return { answerable, unanswerable };
}

/** Expected documents missing from the corpus (a package removed or its docs changed shape). */
export function missingExpected(corpus: CorpusDocument[], questions: AnswerableQuestion[]): string[] {
  const keys = new Set(corpus.map((d) => d.key));
  return [...new Set(questions.flatMap((q) => q.expected.filter((e) => !keys.has(e))))].sort();
}

/** A throwaway database with the kb schema, documents indexed by the worker's own IndexerService. */
export class EvalKnowledgeBase {
  private constructor(
    private readonly server: string,
    private readonly database: string,
    readonly db: DataSource,
    private readonly storageRoot: string,
    readonly retrieval: RetrievalService,
  ) {}

  /** `server`: a Postgres server URL (DATABASE_URL); a database of its own is created on it. */
  static async create(server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'): Promise<EvalKnowledgeBase> {
    const database = `kb_eval_${randomBytes(6).toString('hex')}`;
    await onServer(server, `CREATE DATABASE "${database}"`);
    const options = buildDataSourceOptions({ url: server, database, entities: [], migrations, poolSize: 6 });
    await migrateDatabase(options);
    const db = await new DataSource(options).initialize();
    await db.query(`INSERT INTO kb_tenants (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [TENANT]);
    const storageRoot = mkdtempSync(path.join(tmpdir(), 'kb-eval-'));
    // Outside Nest: the retrieval wired by hand from its repositories, embeddings as the environment configures them.
    const vectors = new VectorSearch(new ChunkEmbeddingsRepository(db), readVectorConfig(process.env));
    // With the in-memory lexical index, as kb-api ranks.
    const indexes = new LexicalIndexes(new LexicalIndexRepository(db), 2 ** 31);
    const retrieval = new RetrievalService(new ChunkSearchRepository(db), new TermStatsRepository(db), new SynonymsRepository(db), vectors, new Clock(), undefined, undefined, indexes);
    return new EvalKnowledgeBase(server, database, db, storageRoot, retrieval);
  }

  /** Stores each document and runs the IngestDocumentJob for it, `concurrency` at a time like the worker. */
  async ingest(docs: CorpusDocument[], concurrency = 4): Promise<void> {
    const documents = new DocumentsRepository(this.db);
    const storage = new LocalDocumentStorage(this.storageRoot);
    const indexer = new IndexerService(documents, storage);
    let next = 0;
    const work = async () => {
      while (next < docs.length) {
        const doc = docs[next++];
        const bytes = Buffer.from(doc.content, 'utf8');
        const hash = createHash('sha256').update(bytes).digest('hex');
        const storageKey = storage.keyOf(TENANT, PROJECT, doc.key);
        const documentId = await documents.accept({
          tenantId: TENANT,
          projectKey: PROJECT,
          sourcePath: doc.key,
          title: doc.key,
          slug: doc.key.replace(/[^a-z0-9]+/gi, '-').toLowerCase(),
          mimeType: 'text/markdown',
          sourceType: 'markdown',
          storageKey,
          hash,
          metadata: {},
        }, () => storage.write(storageKey, bytes));
        const outcome = await indexer.index({ tenantId: TENANT, documentId, hash });
        if (outcome !== 'indexed') throw new Error(`${doc.key} was not indexed: ${outcome}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, work));
    // What autovacuum does on a live server soon after a bulk load: moves the GIN index's pending
    // entries into the index proper and refreshes the planner's statistics.
    await this.db.query('VACUUM ANALYZE kb_chunks');
    await this.db.query('ANALYZE kb_documents');
  }

  retrieve(question: string): Promise<RetrievalResult> {
    return this.retrieval.retrieve(TENANT, question);
  }

  async chunkCount(): Promise<number> {
    const [{ n }] = await this.db.query(`SELECT count(*)::int AS n FROM kb_chunks`);
    return n;
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await onServer(this.server, `DROP DATABASE IF EXISTS "${this.database}" WITH (FORCE)`);
    rmSync(this.storageRoot, { recursive: true, force: true });
  }
}

/** Documents in the order retrieval ranks them: primary chunks first, then the runners-up. */
export function rankedDocuments(result: RetrievalResult): string[] {
  const seen = new Set<string>();
  for (const c of [...result.primary, ...result.runner_up]) seen.add(c.source_path);
  return [...seen];
}

/** The chat's early refusal: no primary chunk is grounded (ChatService refuses with no_relevant_context; see retrieval/grounding.ts). */
export const refused = (result: RetrievalResult) => !result.primary.some((c) => c.grounded);

export function recallAt(k: number, ranked: string[], expected: string[]): number {
  const top = new Set(ranked.slice(0, k));
  return expected.filter((e) => top.has(e)).length / expected.length;
}

export function reciprocalRank(ranked: string[], expected: string[]): number {
  const i = ranked.findIndex((d) => expected.includes(d));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Binary-relevance nDCG: every expected document counts 1. */
export function ndcgAt(k: number, ranked: string[], expected: string[]): number {
  const gain = (i: number) => 1 / Math.log2(i + 2);
  const dcg = ranked.slice(0, k).reduce((s, d, i) => s + (expected.includes(d) ? gain(i) : 0), 0);
  const ideal = Array.from({ length: Math.min(k, expected.length) }, (_, i) => gain(i)).reduce((a, b) => a + b, 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export interface AnswerableOutcome {
  question: AnswerableQuestion;
  ranked: string[];
  recall5: number;
  rr: number;
  ndcg10: number;
  refused: boolean;
  /** The grounded chunks the chat would cite include an expected document. */
  citesExpected: boolean;
}

export interface UnanswerableOutcome {
  question: UnanswerableQuestion;
  refused: boolean;
  /** Documents the chat would cite if it answered. */
  cited: string[];
}

export interface EvalReport {
  answerable: AnswerableOutcome[];
  unanswerable: UnanswerableOutcome[];
  recall5: number;
  mrr: number;
  ndcg10: number;
  /** Share of answerable questions the chat refuses (lower is better). */
  answerableRefusalRate: number;
  /** Share of answerable questions answered with an expected document among the citations. */
  citedExpectedRate: number;
  /** Share of unanswerable questions refused (1 is the target). */
  unanswerableRefusalRate: number;
  /** The same figures on the questions with odd and with even ids (see splitOf). */
  splits: Record<Split, SplitFigures>;
}

export type Split = 'odd' | 'even';

export interface SplitFigures {
  answerable: number;
  answerableRefused: number;
  unanswerable: number;
  unanswerableAnswered: number;
  recall5: number;
}

/**
 * The grounding thresholds are chosen on the questions with odd ids and checked on those with even
 * ids, so the report shows how they hold on questions they were not chosen on.
 */
export const splitOf = (id: string): Split => (Number(id.replace(/\D/g, '')) % 2 === 1 ? 'odd' : 'even');

function splitFigures(answerable: AnswerableOutcome[], unanswerable: UnanswerableOutcome[], split: Split): SplitFigures {
  const a = answerable.filter((o) => splitOf(o.question.id) === split);
  const u = unanswerable.filter((o) => splitOf(o.question.id) === split);
  return {
    answerable: a.length,
    answerableRefused: a.filter((o) => o.refused).length,
    unanswerable: u.length,
    unanswerableAnswered: u.filter((o) => !o.refused).length,
    recall5: mean(a.map((o) => o.recall5)),
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function evaluate(kb: EvalKnowledgeBase, questions: QuestionSet): Promise<EvalReport> {
  const answerable: AnswerableOutcome[] = [];
  for (const question of questions.answerable) {
    const result = await kb.retrieve(question.question);
    const ranked = rankedDocuments(result);
    const cited = result.primary.filter((c) => c.grounded).map((c) => c.source_path);
    answerable.push({
      question,
      ranked,
      recall5: recallAt(5, ranked, question.expected),
      rr: reciprocalRank(ranked, question.expected),
      ndcg10: ndcgAt(10, ranked, question.expected),
      refused: refused(result),
      citesExpected: cited.some((d) => question.expected.includes(d)),
    });
  }
  const unanswerable: UnanswerableOutcome[] = [];
  for (const question of questions.unanswerable) {
    const result = await kb.retrieve(question.question);
    unanswerable.push({ question, refused: refused(result), cited: [...new Set(result.primary.filter((c) => c.grounded).map((c) => c.source_path))] });
  }
  return {
    answerable,
    unanswerable,
    recall5: mean(answerable.map((a) => a.recall5)),
    mrr: mean(answerable.map((a) => a.rr)),
    ndcg10: mean(answerable.map((a) => a.ndcg10)),
    answerableRefusalRate: mean(answerable.map((a) => (a.refused ? 1 : 0))),
    citedExpectedRate: mean(answerable.map((a) => (!a.refused && a.citesExpected ? 1 : 0))),
    unanswerableRefusalRate: mean(unanswerable.map((u) => (u.refused ? 1 : 0))),
    splits: { odd: splitFigures(answerable, unanswerable, 'odd'), even: splitFigures(answerable, unanswerable, 'even') },
  };
}
