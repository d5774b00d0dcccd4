import { BudgetMeter, effectiveBudget } from './budget';
import { DEFAULT_BUDGET } from './config';

const caps = { max_llm_calls: 2, max_tokens: 3000, max_heavy_checks: 8, max_wall_seconds: 30 };

describe('BudgetMeter', () => {
  it('grants calls while calls, heavy checks and estimated tokens stay within their caps', () => {
    const m = new BudgetMeter(caps, () => 0);
    expect(m.tryConsumeLlmCall(1000)).toEqual({ granted: true });
    m.recordTokens(1200);
    expect(m.tryConsumeLlmCall(1000)).toEqual({ granted: true });
    expect(m.tryConsumeLlmCall(1)).toEqual({ granted: false, cap: 'max_llm_calls' });
    expect(m.usage()).toEqual({ llm_calls: 2, tokens: 1200, heavy_checks: 2, wall_seconds: 0 });
  });

  it('refuses a call whose token estimate would pass the cap, without counting it', () => {
    const m = new BudgetMeter({ ...caps, max_tokens: 1500 }, () => 0);
    expect(m.tryConsumeLlmCall(1501)).toEqual({ granted: false, cap: 'max_tokens' });
    expect(m.tryConsumeLlmCall(1500)).toEqual({ granted: true });
    expect(m.usage().llm_calls).toBe(1);
  });

  it('counts a heavy check with every call', () => {
    const m = new BudgetMeter({ ...caps, max_llm_calls: 5, max_heavy_checks: 1 }, () => 0);
    expect(m.tryConsumeLlmCall(0).granted).toBe(true);
    expect(m.tryConsumeLlmCall(0)).toEqual({ granted: false, cap: 'max_heavy_checks' });
  });

  it.each([
    ['max_llm_calls', { max_llm_calls: 0 }],
    ['max_tokens', { max_tokens: 0 }],
    ['max_heavy_checks', { max_heavy_checks: 0 }],
    ['max_wall_seconds', { max_wall_seconds: 0 }],
  ])('a zero %s cap allows no call at all', (cap, change) => {
    const m = new BudgetMeter({ ...caps, ...change }, () => 0);
    expect(m.exhaustedCap()).toBe(cap);
    expect(m.tryConsumeLlmCall(0)).toEqual({ granted: false, cap });
  });

  it('records actual tokens after a call even past the cap, which then exhausts the budget', () => {
    const m = new BudgetMeter(caps, () => 0);
    m.tryConsumeLlmCall(100);
    m.recordTokens(5000);
    expect(m.usage().tokens).toBe(5000);
    expect(m.exhaustedCap()).toBe('max_tokens');
  });

  it('never records negative, fractional or non-finite token counts', () => {
    const m = new BudgetMeter(caps, () => 0);
    m.recordTokens(-50);
    m.recordTokens(10.9);
    m.recordTokens(Number.NaN);
    expect(m.usage().tokens).toBe(10);
  });

  it('counts whole seconds of wall time from the monotonic clock against its cap', () => {
    let now = 5000;
    const m = new BudgetMeter({ ...caps, max_wall_seconds: 2 }, () => now);
    now = 6999;
    expect(m.usage().wall_seconds).toBe(1);
    expect(m.exhaustedCap()).toBeNull();
    expect(m.remainingWallMs()).toBe(1);
    now = 7000;
    expect(m.exhaustedCap()).toBe('max_wall_seconds');
    expect(m.remainingWallMs()).toBe(0);
    expect(m.tryConsumeLlmCall(0)).toEqual({ granted: false, cap: 'max_wall_seconds' });
  });
});

describe('effectiveBudget', () => {
  it('uses the config caps for caps the request leaves out', () => {
    expect(effectiveBudget(DEFAULT_BUDGET, {})).toEqual({
      max_llm_calls: 3,
      max_tokens: 6000,
      max_heavy_checks: 8,
      max_wall_seconds: 30,
    });
  });

  it('lets a request lower a cap but never raise it', () => {
    expect(effectiveBudget(DEFAULT_BUDGET, { max_llm_calls: 1, max_tokens: 100000 })).toEqual({
      ...DEFAULT_BUDGET,
      max_llm_calls: 1,
    });
  });
});
