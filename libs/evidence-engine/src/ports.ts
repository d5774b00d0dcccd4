import type { LlmProvider } from '@platform/llm';
import { ReviewRequest, ReviewResult } from './types';

/** Where time comes from: wall time for `reviewed_at`, a monotonic count for the wall-time cap. */
export interface Clock {
  now(): Date;
  monotonicMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
};

/** A clock stopped at one instant: every review is "at" that time and takes zero seconds. */
export function fixedClock(instant: string | number | Date): Clock {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) throw new RangeError(`Not a valid instant: ${String(instant)}`);
  return { now: () => new Date(at), monotonicMs: () => 0 };
}

/** The model, behind the provider port of @platform/llm. */
export type LlmPort = Pick<LlmProvider, 'complete'>;

export interface ReviewLogEntry {
  artifact: ReviewRequest['artifact'];
  options: ReviewRequest['options'];
  result: ReviewResult;
}

/** Where finished reviews are appended (not for dry runs). A failing append fails the review. */
export interface ReviewLogPort {
  append(entry: ReviewLogEntry): Promise<void>;
}

export interface EnginePorts {
  clock?: Clock;
  /** Default: the `none` provider (no model, no tokens). Used only when `llm.enabled` is true. */
  llm?: LlmPort;
  /** Default: none; adapters may log themselves instead. */
  log?: ReviewLogPort;
}
