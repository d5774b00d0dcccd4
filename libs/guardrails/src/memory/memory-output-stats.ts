import { addOutputCounts, emptyOutputCounts, isEmptyOutputCounts, OutputCounts } from '../output/output-counts';
import { TimeWindow } from '../ports/keyset-page';
import { OutputStatsStore } from '../ports/output-stats.port';
import { copy, inWindow } from './keyset';

export class MemoryOutputStats implements OutputStatsStore {
  private readonly rows: Array<{ at: Date; counts: OutputCounts }> = [];

  async record(counts: OutputCounts, at: Date): Promise<void> {
    if (!isEmptyOutputCounts(counts)) this.rows.push({ at, counts: copy(counts) });
  }

  async totals(window: Required<TimeWindow>): Promise<OutputCounts> {
    return this.rows.filter((r) => inWindow(r.at, window)).reduce((sum, r) => addOutputCounts(sum, r.counts), emptyOutputCounts());
  }
}
