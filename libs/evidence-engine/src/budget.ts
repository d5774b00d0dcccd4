import { BudgetCaps, BudgetUsage } from './types';

export type BudgetDecision = { granted: true } | { granted: false; cap: keyof BudgetCaps };

/**
 * The caps one review runs under: the config's caps, lowered (never raised) by the request's, so
 * a client cannot spend more than the operator allowed.
 */
export function effectiveBudget(
  configured: BudgetCaps,
  requested: Partial<BudgetCaps>,
): BudgetCaps {
  const min = (key: keyof BudgetCaps) =>
    Math.min(configured[key], requested[key] ?? configured[key]);
  return {
    max_llm_calls: min('max_llm_calls'),
    max_tokens: min('max_tokens'),
    max_heavy_checks: min('max_heavy_checks'),
    max_wall_seconds: min('max_wall_seconds'),
  };
}

/**
 * Meters what one review spends on the model: calls, tokens, heavy checks and wall time. A call
 * is granted only while nothing is exhausted and one more call, one more heavy check and the
 * estimated tokens all stay within their caps. Actual tokens are recorded after the call and may
 * pass the cap (the reply has been paid for); that exhausts the budget for later calls.
 */
export class BudgetMeter {
  private calls = 0;
  private tokens = 0;
  private heavy = 0;
  private readonly startedMs: number;

  constructor(
    readonly caps: BudgetCaps,
    private readonly monotonicMs: () => number,
  ) {
    this.startedMs = monotonicMs();
  }

  private elapsedMs(): number {
    return Math.max(0, this.monotonicMs() - this.startedMs);
  }

  /** Whole seconds since the review started. */
  elapsedSeconds(): number {
    return Math.floor(this.elapsedMs() / 1000);
  }

  /** Time left before the wall-time cap, for a deadline on a call in flight. */
  remainingWallMs(): number {
    return Math.max(0, this.caps.max_wall_seconds * 1000 - this.elapsedMs());
  }

  /** The first cap that is used up, or null. */
  exhaustedCap(): keyof BudgetCaps | null {
    if (this.calls >= this.caps.max_llm_calls) return 'max_llm_calls';
    if (this.tokens >= this.caps.max_tokens) return 'max_tokens';
    if (this.heavy >= this.caps.max_heavy_checks) return 'max_heavy_checks';
    if (this.elapsedSeconds() >= this.caps.max_wall_seconds) return 'max_wall_seconds';
    return null;
  }

  tryConsumeLlmCall(estimatedTokens: number): BudgetDecision {
    const exhausted = this.exhaustedCap();
    if (exhausted) return { granted: false, cap: exhausted };
    // Not exhausted means one more call and one more heavy check still fit; tokens are estimated.
    if (this.tokens + Math.max(0, estimatedTokens) > this.caps.max_tokens)
      return { granted: false, cap: 'max_tokens' };
    this.calls += 1;
    this.heavy += 1;
    return { granted: true };
  }

  recordTokens(n: number): void {
    if (Number.isFinite(n)) this.tokens += Math.max(0, Math.floor(n));
  }

  usage(): BudgetUsage {
    return {
      llm_calls: this.calls,
      tokens: this.tokens,
      heavy_checks: this.heavy,
      wall_seconds: this.elapsedSeconds(),
    };
  }
}
