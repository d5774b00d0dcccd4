import { BudgetCaps } from './types';

/**
 * Limits what one review may spend on the LLM: calls, tokens, heavy checks and wall time.
 * A call is allowed only if one more of each stays within its cap (tokens by estimate).
 */
export class BudgetMeter {
  private calls = 0;
  private tokens = 0;
  private heavy = 0;
  private readonly startedMs: number;

  constructor(
    private readonly caps: BudgetCaps,
    private readonly nowMs: () => number,
  ) {
    this.startedMs = nowMs();
  }

  private elapsedSeconds(): number {
    return Math.floor((this.nowMs() - this.startedMs) / 1000);
  }

  exhausted(): boolean {
    return (
      this.calls >= this.caps.max_llm_calls ||
      this.tokens >= this.caps.max_tokens ||
      this.heavy >= this.caps.max_heavy_checks ||
      this.elapsedSeconds() >= this.caps.max_wall_seconds
    );
  }

  tryConsumeLlmCall(estimatedTokens: number): boolean {
    if (this.exhausted()) return false;
    if (this.calls + 1 > this.caps.max_llm_calls || this.heavy + 1 > this.caps.max_heavy_checks) return false;
    if (this.tokens + estimatedTokens > this.caps.max_tokens) return false;
    this.calls += 1;
    this.heavy += 1;
    return true;
  }

  recordTokens(n: number): void {
    this.tokens += Math.max(0, Math.floor(n));
  }

  snapshot() {
    return { llm_calls: this.calls, tokens: this.tokens, heavy_checks: this.heavy, wall_seconds: this.elapsedSeconds() };
  }
}
