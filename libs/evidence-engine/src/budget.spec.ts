import { BudgetMeter } from './budget';

describe('BudgetMeter', () => {
  const caps = { max_llm_calls: 2, max_tokens: 3000, max_heavy_checks: 8, max_wall_seconds: 30 };

  it('allows calls while calls, heavy checks and estimated tokens stay within caps', () => {
    const m = new BudgetMeter(caps, () => 0);
    expect(m.tryConsumeLlmCall(1000)).toBe(true);
    m.recordTokens(1200);
    expect(m.tryConsumeLlmCall(1000)).toBe(true);
    expect(m.tryConsumeLlmCall(1)).toBe(false);
    expect(m.snapshot()).toEqual({ llm_calls: 2, tokens: 1200, heavy_checks: 2, wall_seconds: 0 });
  });

  it('refuses a call whose token estimate would pass the cap, and everything once exhausted', () => {
    const m = new BudgetMeter({ ...caps, max_tokens: 1500 }, () => 0);
    expect(m.tryConsumeLlmCall(2000)).toBe(false);
    expect(new BudgetMeter({ ...caps, max_tokens: 0 }, () => 0).tryConsumeLlmCall(0)).toBe(false);
  });

  it('counts whole wall seconds against the time cap and never records negative tokens', () => {
    let now = 0;
    const m = new BudgetMeter({ ...caps, max_wall_seconds: 2 }, () => now);
    now = 1999;
    expect(m.exhausted()).toBe(false);
    now = 2000;
    expect(m.exhausted()).toBe(true);
    m.recordTokens(-50);
    expect(m.snapshot().tokens).toBe(0);
  });
});
