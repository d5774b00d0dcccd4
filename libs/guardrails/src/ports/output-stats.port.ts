import { OutputCounts } from '../output/output-counts';
import { TimeWindow } from './keyset-page';

/** Output-handling counters (never swept by retention). */
export interface OutputStatsStore {
  /** Adds one handled output's counts (nothing to record when all are zero). */
  record(counts: OutputCounts, at: Date): Promise<void>;
  /** Sums over the window; every kind present, zero-filled; `pii.by_detector` always an object. */
  totals(window: Required<TimeWindow>): Promise<OutputCounts>;
}
