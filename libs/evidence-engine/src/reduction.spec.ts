import { claimVerdicts, riskScore, worstVerdict } from './reduction';
import { Claim, Finding, severityOf, Verdict, VERDICTS } from './types';

const claim = (id: string): Claim => ({
  id,
  text: 't',
  assertiveness: 'likely',
  source_ids: [],
  metadata: {},
});
const finding = (claim_id: string | null, verdict: Verdict): Finding => ({
  check_kind: 'red_flag',
  claim_id,
  verdict,
  reason: 'r',
  suggested_rewrite: null,
  confidence: 0.7,
  cost_class: 'cheap',
  evidence: {},
});

describe('verdict precedence', () => {
  it('orders keep < soften < flag_for_human_review < remove', () => {
    expect(VERDICTS.map(severityOf)).toEqual([0, 1, 2, 3]);
    expect(
      worstVerdict([
        finding('a', 'soften'),
        finding('a', 'remove'),
        finding('a', 'flag_for_human_review'),
      ]),
    ).toBe('remove');
    expect(worstVerdict([finding('a', 'soften'), finding('a', 'keep')])).toBe('soften');
  });

  it('is keep when there are no findings', () => {
    expect(worstVerdict([])).toBe('keep');
  });

  it('counts findings without a claim (a budget-skipped heavy check)', () => {
    expect(worstVerdict([finding('a', 'soften'), finding(null, 'flag_for_human_review')])).toBe(
      'flag_for_human_review',
    );
  });
});

describe('claimVerdicts', () => {
  it('maps each claim to its worst verdict in claim input order, not finding order', () => {
    const verdicts = claimVerdicts(
      [claim('z'), claim('a'), claim('m')],
      [
        finding('a', 'soften'),
        finding('z', 'soften'),
        finding('z', 'remove'),
        finding('m', 'flag_for_human_review'),
      ],
    );
    expect(Object.entries(verdicts)).toEqual([
      ['z', 'remove'],
      ['a', 'soften'],
      ['m', 'flag_for_human_review'],
    ]);
  });

  it('leaves out claims with no findings or only keep findings, and ignores findings without a claim', () => {
    const verdicts = claimVerdicts(
      [claim('clean'), claim('kept'), claim('x')],
      [finding('kept', 'keep'), finding(null, 'remove'), finding('x', 'soften')],
    );
    expect(verdicts).toEqual({ x: 'soften' });
  });

  it('folds a repeated claim id into one key at its first place', () => {
    const verdicts = claimVerdicts(
      [claim('d'), claim('e'), claim('d')],
      [finding('e', 'soften'), finding('d', 'remove')],
    );
    expect(Object.entries(verdicts)).toEqual([
      ['d', 'remove'],
      ['e', 'soften'],
    ]);
  });

  it('keeps input order for ids that look like numbers', () => {
    const ids = ['10', '2', 'b', '1', 'a'];
    const verdicts = claimVerdicts(
      ids.map(claim),
      ids.map((id) => finding(id, 'soften')),
    );
    expect(Object.keys(verdicts)).toEqual(ids);
    expect(JSON.stringify(verdicts)).toBe(
      '{"10":"soften","2":"soften","b":"soften","1":"soften","a":"soften"}',
    );
  });
});

describe('riskScore', () => {
  it('is the worst severity over 3, to four decimals', () => {
    expect(VERDICTS.map(riskScore)).toEqual([0, 0.3333, 0.6667, 1]);
  });
});
