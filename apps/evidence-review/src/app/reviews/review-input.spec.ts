import { EvidenceValidationError } from '@platform/evidence-engine';
import { DUPLICATE_IDS_NAMED, parseReviewInput } from './review-input';

const problemsOf = (input: unknown) => {
  try {
    parseReviewInput(input);
    return [];
  } catch (e) {
    if (!(e instanceof EvidenceValidationError)) throw e;
    return e.details;
  }
};

describe('parseReviewInput (the engine validation plus unique ids)', () => {
  it('passes a request whose claim and source ids are each unique, a claim id equal to a source id included', () => {
    const request = parseReviewInput({ artifact_id: 'a', answer_text: 'x', claims: [{ id: 's1', text: 't', source_ids: ['s1', 's1'] }], sources: [{ id: 's1' }, { id: 's2' }] });
    expect(request.artifact.sources.map((s) => s.id)).toEqual(['s1', 's2']);
  });

  it('names each duplicated id once, in first-seen order, at the path the client sent', () => {
    const claims = ['b', 'a', 'b', 'a', 'b'].map((id) => ({ id, text: 't' }));
    expect(problemsOf({ artifact: { artifact_id: 'a', answer_text: 'x', claims } })).toEqual([
      { path: 'artifact.claims', message: 'Expected unique claim ids at [artifact.claims]; given more than once: "b", "a".' },
    ]);
    expect(problemsOf({ artifact_id: 'a', answer_text: 'x', sources: [{ id: 's 1' }, { id: 's 1' }] })).toEqual([
      { path: 'sources', message: 'Expected unique source ids at [sources]; given more than once: "s 1".' },
    ]);
  });

  it(`names at most ${DUPLICATE_IDS_NAMED} ids and counts the rest`, () => {
    const sources = Array.from({ length: 30 }, (_, i) => ({ id: `s${i}` }));
    const [problem] = problemsOf({ artifact_id: 'a', answer_text: 'x', sources: [...sources, ...sources] });
    expect(problem.message).toBe(`Expected unique source ids at [sources]; given more than once: ${sources.slice(0, 20).map((s) => `"${s.id}"`).join(', ')} (and 10 more).`);
  });

  it("reports the engine's own problems first, as the engine words them", () => {
    expect(problemsOf({ artifact_id: '', answer_text: 'x', claims: [{ id: 'c', text: 't' }, { id: 'c', text: 't' }] })).toEqual([
      { path: 'artifact_id', message: 'Expected non-empty string at [artifact_id].' },
    ]);
  });
});
