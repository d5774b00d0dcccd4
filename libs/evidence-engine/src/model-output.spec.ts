import { resolveEngineConfig } from './config';
import { parseModelFindings, parseModelTiers } from './model-output';

const claims = new Set(['c1', 'c2']);

describe('parseModelFindings: model output is validated item by item', () => {
  it('keeps valid items as heavy evidence_strength findings', () => {
    const findings = parseModelFindings(
      {
        findings: [
          {
            claim_id: 'c1',
            verdict: 'remove',
            reason: ' Unsupported. ',
            confidence: 0.9,
            suggested_rewrite: 'Maybe.',
          },
          { claim_id: null, verdict: 'soften', reason: 'Overall tone.' },
        ],
      },
      claims,
    );
    expect(findings).toEqual([
      {
        check_kind: 'evidence_strength',
        claim_id: 'c1',
        verdict: 'remove',
        reason: 'Unsupported.',
        suggested_rewrite: 'Maybe.',
        confidence: 0.9,
        cost_class: 'heavy',
        evidence: {},
      },
      {
        check_kind: 'evidence_strength',
        claim_id: null,
        verdict: 'soften',
        reason: 'Overall tone.',
        suggested_rewrite: null,
        confidence: 0.75,
        cost_class: 'heavy',
        evidence: {},
      },
    ]);
  });

  it('defaults a missing verdict to flag_for_human_review and a missing claim id to null', () => {
    expect(parseModelFindings({ findings: [{ reason: 'r' }] }, claims)).toMatchObject([
      { claim_id: null, verdict: 'flag_for_human_review' },
    ]);
  });

  it.each([
    ['a non-object item', 'text'],
    ['an item without a reason', { claim_id: 'c1' }],
    ['an empty reason', { claim_id: 'c1', reason: '  ' }],
    ['a non-string reason', { claim_id: 'c1', reason: 5 }],
    ['an unknown verdict', { claim_id: 'c1', reason: 'r', verdict: 'obliterate' }],
    ['a null-like but invalid verdict', { claim_id: 'c1', reason: 'r', verdict: false }],
    ['a claim id the artifact does not have', { claim_id: 'ghost', reason: 'r' }],
    ['a numeric claim id', { claim_id: 1, reason: 'r' }],
  ])('drops %s', (_name, item) => {
    expect(
      parseModelFindings({ findings: [item, { claim_id: 'c2', reason: 'kept' }] }, claims),
    ).toMatchObject([{ claim_id: 'c2', reason: 'kept' }]);
  });

  it.each([[1.5], [-0.1], ['0.9'], [Number.NaN], [null]])(
    'replaces confidence %p with 0.75',
    (confidence) => {
      expect(
        parseModelFindings({ findings: [{ reason: 'r', confidence }] }, claims)[0].confidence,
      ).toBe(0.75);
    },
  );

  it('ignores a blank or non-string suggested rewrite', () => {
    const [a, b] = parseModelFindings(
      {
        findings: [
          { reason: 'r', suggested_rewrite: ' ' },
          { reason: 'r', suggested_rewrite: 3 },
        ],
      },
      claims,
    );
    expect([a.suggested_rewrite, b.suggested_rewrite]).toEqual([null, null]);
  });

  it.each([[null], ['text'], [[]], [{}], [{ findings: 'none' }], [{ findings: { a: 1 } }]])(
    'finds nothing in %j',
    (data) => {
      expect(parseModelFindings(data, claims)).toEqual([]);
    },
  );
});

describe('parseModelTiers', () => {
  const tiers = resolveEngineConfig().tiers;

  it('keeps suggestions for sources it asked about that name configured tiers', () => {
    const refined = parseModelTiers(
      { source_tiers: { s1: 'news', s2: 'ghost', s3: 'guideline', s4: 7 } },
      new Set(['s1', 's2', 's4']),
      tiers,
    );
    expect([...refined]).toEqual([['s1', 'news']]);
  });

  it.each([[null], [{ source_tiers: ['news'] }], [{ source_tiers: 'news' }]])(
    'finds nothing in %j',
    (data) => {
      expect(parseModelTiers(data, new Set(['s1']), tiers).size).toBe(0);
    },
  );
});
