import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiCompatibleProvider } from '@platform/llm';
import { FakeOpenAiServer } from '@platform/testing';
import { EngineConfig } from './config';
import { createReviewEngine } from './engine';
import { fixedClock, LlmPort } from './ports';
import { Tier } from './tiers';

/** Source id → tier key: which tier each source ended with (the tier objects are asserted in engine.spec). */
const tierKeys = (tiers: Record<string, Tier>) => Object.fromEntries(Object.entries(tiers).map(([id, t]) => [id, t.key]));

/** c1 fails cheap checks (over-generalization); c2 is clean and well supported. */
const flagged = {
  artifact_id: 'a',
  answer_text: 'Answer for the model only.',
  claims: [
    { id: 'c1', text: 'This always works.', source_ids: ['s'] },
    { id: 'c2', text: 'Plain.', source_ids: ['s'] },
  ],
  sources: [{ id: 's', declared_tier: 'guideline' }],
};

describe('the LLM step, against a real local chat-completions server', () => {
  let server: FakeOpenAiServer;
  const engine = (config: EngineConfig = { llm: { enabled: true } }, llm?: LlmPort) =>
    createReviewEngine(config, {
      llm: llm ?? new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'tiny' }),
      clock: fixedClock('2026-11-22T10:00:00Z'),
    });
  const payloadOf = (call: number) => JSON.parse(server.calls[call].body.messages[1].content);
  const systemOf = (call: number) => server.calls[call].body.messages[0].content;

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.stop());

  it('makes no call by default, even with a provider bound', async () => {
    const r = await engine({}).review({ ...flagged, options: { label_via_llm: true } });
    expect(server.calls).toHaveLength(0);
    expect(r.metadata).toEqual({ dry_run: false, heavy_checks_run: false, llm_enabled: false });
    expect(r.budget).toEqual({ llm_calls: 0, tokens: 0, heavy_checks: 0, wall_seconds: 0 });
  });

  it('makes no call when no cheap check found anything', async () => {
    const r = await engine().review({ ...flagged, claims: [flagged.claims[1]] });
    expect(server.calls).toHaveLength(0);
    expect(r.findings).toEqual([]);
  });

  it('asks once, with the artifact, profile and cheap findings, and appends validated findings', async () => {
    server.reply({
      tokens: 420,
      content: JSON.stringify({
        findings: [
          {
            claim_id: 'c1',
            verdict: 'remove',
            reason: 'Unsupported universal claim.',
            confidence: 0.9,
            suggested_rewrite: 'Usually works.',
          },
          { claim_id: 'c2', reason: 'Default verdict applies.' },
          { claim_id: 'c1', verdict: 'obliterate', reason: 'bad verdict' },
          { claim_id: 'ghost', reason: 'unknown claim' },
          { claim_id: 'c2', verdict: 'soften' },
          'not an object',
        ],
      }),
    });
    const r = await engine().review(flagged);

    expect(server.calls).toHaveLength(1);
    expect(server.calls[0].body.max_tokens).toBe(1000);
    expect(systemOf(0)).toContain(
      'Review claims that already failed cheap evidence checks and return conservative risk findings.',
    );
    expect(systemOf(0)).toContain('Purpose: risk_check.evidence_strength.');
    const payload = payloadOf(0);
    expect(payload.artifact.answer_text).toBe('Answer for the model only.');
    expect(payload.profile).toMatchObject({ key: 'default' });
    expect(payload.cheap_findings).toEqual([
      {
        check_kind: 'over_generalization',
        claim_id: 'c1',
        verdict: 'soften',
        reason: 'Claim matched over_generalization keyword [always].',
      },
    ]);

    expect(r.findings.map((f) => [f.check_kind, f.claim_id, f.verdict, f.cost_class])).toEqual([
      ['over_generalization', 'c1', 'soften', 'cheap'],
      ['evidence_strength', 'c1', 'remove', 'heavy'],
      ['evidence_strength', 'c2', 'flag_for_human_review', 'heavy'],
    ]);
    expect(r.findings[1]).toMatchObject({ confidence: 0.9, suggested_rewrite: 'Usually works.' });
    expect(r.findings[2]).toMatchObject({ confidence: 0.75, suggested_rewrite: null });
    expect(r.claim_verdicts).toEqual({ c1: 'remove', c2: 'flag_for_human_review' });
    expect(r).toMatchObject({ verdict: 'remove', risk_score: 1 });
    expect(r.budget).toEqual({ llm_calls: 1, tokens: 420, heavy_checks: 1, wall_seconds: 0 });
    expect(r.metadata).toEqual({ dry_run: false, heavy_checks_run: true, llm_enabled: true });
  });

  it('treats a reply that is not JSON as no findings', async () => {
    server.reply({ content: 'I think it is fine.', tokens: 12 });
    const r = await engine().review(flagged);
    expect(r.findings.map((f) => f.cost_class)).toEqual(['cheap']);
    expect(r.budget.tokens).toBe(12);
  });

  it.each([
    ['max_llm_calls', { max_llm_calls: 0 }],
    ['max_tokens', { max_tokens: 999 }],
    ['max_heavy_checks', { max_heavy_checks: '0' }],
    ['max_wall_seconds', { max_wall_seconds: 0 }],
  ])(
    'adds a skipped_over_budget finding instead of calling when %s is too low',
    async (cap, budget) => {
      const r = await engine().review({ ...flagged, options: { budget } });
      expect(server.calls).toHaveLength(0);
      expect(r.findings.at(-1)).toEqual({
        check_kind: 'evidence_strength',
        claim_id: null,
        verdict: 'flag_for_human_review',
        reason: 'Heavy check [evidence_strength] skipped because review budget is exhausted.',
        suggested_rewrite: null,
        confidence: 1,
        cost_class: 'skipped_over_budget',
        evidence: { exhausted_cap: cap },
      });
      // The skipped check raises the review's verdict and score, but no claim's verdict.
      expect(r).toMatchObject({
        verdict: 'flag_for_human_review',
        risk_score: 0.6667,
        claim_verdicts: { c1: 'soften' },
      });
      expect(r.metadata.heavy_checks_run).toBe(false);
    },
  );

  it('bounds a request budget by the configured one', async () => {
    const r = await engine({ llm: { enabled: true }, budget: { max_llm_calls: 0 } }).review({
      ...flagged,
      options: { budget: { max_llm_calls: 50 } },
    });
    expect(server.calls).toHaveLength(0);
    expect(r.findings.at(-1)).toMatchObject({
      cost_class: 'skipped_over_budget',
      evidence: { exhausted_cap: 'max_llm_calls' },
    });
  });

  it('answers 503 llm_unavailable when the provider fails', async () => {
    server.reply({ status: 502 });
    await expect(engine().review(flagged)).rejects.toMatchObject({
      code: 'llm_unavailable',
      status: 503,
      message: 'The language model is unavailable: LLM provider answered HTTP 502.',
    });
  });

  it('with the default none provider, spends one metered call, no tokens and finds nothing', async () => {
    const r = await createReviewEngine({ llm: { enabled: true } }, { clock: fixedClock(0) }).review(
      flagged,
    );
    expect(r.budget).toEqual({ llm_calls: 1, tokens: 0, heavy_checks: 1, wall_seconds: 0 });
    expect(r.findings.map((f) => f.cost_class)).toEqual(['cheap']);
  });

  describe('tier refinement (label_via_llm)', () => {
    const withGuessedSource = {
      ...flagged,
      claims: [{ id: 'c1', text: 'Plain.', source_ids: ['web'] }],
      sources: [
        { id: 'web', url: 'https://vendor.test/page' },
        { id: 'decl', declared_tier: 'news' },
        { id: 'web', url: 'https://vendor.test/page-2' },
      ],
    };

    it('asks about guessed sources only, before the checks, so refined tiers change the findings', async () => {
      server
        .reply({
          tokens: 30,
          content: JSON.stringify({
            source_tiers: { web: 'official', decl: 'guideline', other: 'guideline' },
          }),
        })
        .reply({ content: '{}' });
      const r = await engine().review({ ...withGuessedSource, options: { label_via_llm: true } });

      expect(server.calls).toHaveLength(1);
      expect(systemOf(0)).toContain('Purpose: tier_refinement.');
      expect(payloadOf(0).sources).toEqual([
        {
          id: 'web',
          url: 'https://vendor.test/page-2',
          title: null,
          snippet: null,
          tier: 'unverified',
        },
      ]);
      expect(payloadOf(0).tiers[0]).toEqual({ key: 'guideline', rank: 100, label: 'Guideline' });
      expect(tierKeys(r.source_tiers)).toEqual({ web: 'official', decl: 'news' });
      expect(r.findings).toEqual([]);
      expect(r.budget).toMatchObject({ llm_calls: 1, tokens: 30 });
    });

    it('without refinement the guessed tier stands and the claim is flagged', async () => {
      const r = await engine().review(withGuessedSource);
      expect(tierKeys(r.source_tiers)).toEqual({ web: 'unverified', decl: 'news' });
      expect(r.findings[0]).toMatchObject({ check_kind: 'evidence_strength', claim_id: 'c1' });
    });

    it('makes no refinement call when every source declares its tier', async () => {
      await engine().review({
        ...flagged,
        claims: [flagged.claims[1]],
        options: { label_via_llm: true },
      });
      expect(server.calls).toHaveLength(0);
    });

    it('shares the budget with the heavy check', async () => {
      server.reply({ content: '{"source_tiers":{}}' });
      const r = await engine().review({
        ...withGuessedSource,
        options: { label_via_llm: true, budget: { max_llm_calls: 1 } },
      });
      expect(server.calls).toHaveLength(1);
      expect(r.findings.map((f) => f.cost_class)).toEqual(['cheap', 'skipped_over_budget']);
    });
  });

  it('cuts a call off when the review runs out of wall time, as over budget, not as an outage', async () => {
    const slow = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
      const e = createReviewEngine(
        { llm: { enabled: true } },
        { llm: new OpenAiCompatibleProvider({ baseUrl: url, model: 'm' }) },
      );
      const r = await e.review({ ...flagged, options: { budget: { max_wall_seconds: 1 } } });
      expect(r.findings.at(-1)).toMatchObject({
        cost_class: 'skipped_over_budget',
        evidence: { exhausted_cap: 'max_wall_seconds' },
      });
      expect(r.budget.llm_calls).toBe(1);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
