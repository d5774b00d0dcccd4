import { OpenAiCompatibleProvider } from '@platform/llm';
import { FakeOpenAiServer } from '@platform/testing';
import { createReviewEngine } from './engine';
import { EvidenceError } from './errors';

const flagged = {
  artifact_id: 'a',
  answer_text: 'Answer for the model only.',
  claims: [
    { id: 'c1', text: 'This always works.', source_ids: ['s'] },
    { id: 'c2', text: 'Plain.', source_ids: ['s'] },
  ],
  sources: [{ id: 's', declared_tier: 'guideline' }],
};

describe('the optional LLM step, against a real local chat-completions server', () => {
  let server: FakeOpenAiServer;
  const engine = (enabled = true) =>
    createReviewEngine({ llm: { enabled } }, { llm: new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'tiny' }), now: () => new Date(0), monotonicMs: () => 0 });

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.stop());

  it('makes no call when the LLM is disabled, or when no cheap finding exists', async () => {
    const off = await engine(false).review(flagged);
    expect(off.metadata).toMatchObject({ llm_enabled: false, heavy_checks_run: false });
    await engine(true).review({ ...flagged, claims: [flagged.claims[1]] });
    expect(server.calls).toHaveLength(0);
  });

  it('adds validated heavy findings, drops bad items, and meters calls and tokens', async () => {
    server.reply({
      tokens: 420,
      content: JSON.stringify({
        findings: [
          { claim_id: 'c1', verdict: 'remove', reason: 'Unsupported universal claim.', confidence: 0.9, suggested_rewrite: 'Usually works.' },
          { claim_id: 'c2', reason: 'Default verdict applies.' },
          { claim_id: 'c1', verdict: 'obliterate', reason: 'bad verdict' },
          { claim_id: 'ghost', reason: 'unknown claim' },
          { claim_id: 'c2', verdict: 'soften' },
          'not an object',
        ],
      }),
    });
    const r = await engine().review(flagged);
    const heavy = r.findings.filter((f) => f.cost_class === 'heavy');
    expect(heavy).toEqual([
      expect.objectContaining({ claim_id: 'c1', verdict: 'remove', confidence: 0.9, suggested_rewrite: 'Usually works.' }),
      expect.objectContaining({ claim_id: 'c2', verdict: 'flag_for_human_review', confidence: 0.75 }),
    ]);
    expect(r.claim_verdicts).toEqual({ c1: 'remove', c2: 'flag_for_human_review' });
    expect(r.budget).toMatchObject({ llm_calls: 1, heavy_checks: 1, tokens: 420 });
    expect(r.metadata.heavy_checks_run).toBe(true);
    expect(server.calls).toHaveLength(1);
    expect(JSON.parse(server.calls[0].body.messages[1].content).artifact.answer_text).toBe('Answer for the model only.');
  });

  it('adds skipped_over_budget instead of calling when the budget is spent', async () => {
    const r = await engine().review({ artifact: flagged, options: { budget: { max_llm_calls: 0 } } });
    expect(server.calls).toHaveLength(0);
    expect(r.findings.at(-1)).toEqual(
      expect.objectContaining({ claim_id: null, verdict: 'flag_for_human_review', cost_class: 'skipped_over_budget', confidence: 1 }),
    );
    expect(r.verdict).toBe('flag_for_human_review');
  });

  it('refines tiers only when asked, and only to configured tiers of known sources', async () => {
    server.reply({ content: '{"findings":[]}' }).reply({ content: JSON.stringify({ source_tiers: { s: 'news', other: 'guideline', x: 'ghost' } }) });
    const r = await engine().review({ artifact: { ...flagged, sources: [{ id: 's' }, { id: 'x' }] }, options: { label_via_llm: true } });
    expect(r.source_tiers).toEqual({ s: 'news', x: 'unverified' });
    expect(r.budget.llm_calls).toBe(2);
  });

  it('answers 503 llm_unavailable when the provider fails', async () => {
    server.reply({ status: 502 });
    await expect(engine().review(flagged)).rejects.toMatchObject({ code: 'llm_unavailable', status: 503 });
    await expect(engine().review(flagged)).resolves.toBeDefined();
    expect(() => createReviewEngine({ llm: { enabled: true } })).toThrow(EvidenceError);
  });
});
