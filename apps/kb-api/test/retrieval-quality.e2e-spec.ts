import { AnswerableQuestion, CorpusDocument, EvalKnowledgeBase, evaluate, EvalReport, loadCorpus, loadQuestions, missingExpected } from '../eval/retrieval-eval';

/**
 * Quality gate: a smaller run of the retrieval evaluation (tools/eval/kb-retrieval-eval.mjs runs the
 * whole one). Every other answerable question, the documents they expect plus every third other
 * document of the corpus as distractors, and all unanswerable questions, through the real indexer
 * and RetrievalService. recall@5 and the unanswerable questions are held to the evaluation's targets
 * (recall@5 ≥ 0.9, every unanswerable question refused); the other floors sit under the full
 * evaluation's figures (docs/kb-retrieval-eval.md) so that a ranking or grounding regression fails.
 */
const FLOORS = { recall5: 0.9, mrr: 0.75, ndcg10: 0.8, answerableRefusalRateMax: 0.1 };

function subset(corpus: CorpusDocument[], answerable: AnswerableQuestion[]) {
  const questions = answerable.filter((_, i) => i % 2 === 0);
  const expected = new Set(questions.flatMap((q) => q.expected));
  const docs = corpus.filter((d, i) => expected.has(d.key) || i % 3 === 0);
  return { questions, docs };
}

describe('knowledge-base retrieval quality (evaluation subset)', () => {
  let kb: EvalKnowledgeBase;
  let report: EvalReport;
  let corpusSize: number;

  beforeAll(async () => {
    const corpus = loadCorpus();
    const all = loadQuestions();
    expect(missingExpected(corpus, all.answerable)).toEqual([]);
    const { questions, docs } = subset(corpus, all.answerable);
    corpusSize = docs.length;
    kb = await EvalKnowledgeBase.create();
    await kb.ingest(docs);
    report = await evaluate(kb, { answerable: questions, unanswerable: all.unanswerable });
  }, 120_000);

  afterAll(async () => {
    await kb?.close();
  });

  it('indexes a corpus of real documentation with questions for it', () => {
    expect(corpusSize).toBeGreaterThanOrEqual(120);
    expect(report.answerable.length).toBeGreaterThanOrEqual(50);
    expect(report.unanswerable.length).toBeGreaterThanOrEqual(30);
  });

  it('ranks the expected documents near the top', () => {
    const misses = report.answerable.filter((a) => a.recall5 < 1).map((a) => `${a.question.id}: ${a.ranked.slice(0, 5).join(', ')}`);
    expect({ recall5: report.recall5 >= FLOORS.recall5, misses }).toEqual({ recall5: true, misses: expect.any(Array) });
    expect(report.mrr).toBeGreaterThanOrEqual(FLOORS.mrr);
    expect(report.ndcg10).toBeGreaterThanOrEqual(FLOORS.ndcg10);
  });

  it('answers the answerable questions and refuses the unanswerable ones', () => {
    expect(report.answerableRefusalRate).toBeLessThanOrEqual(FLOORS.answerableRefusalRateMax);
    const answered = report.unanswerable.filter((u) => !u.refused).map((u) => u.question.id);
    expect(answered).toEqual([]);
    expect(report.unanswerableRefusalRate).toBe(1);
  });
});
