import type { ReindexRepository } from './reindex.repository';

/** Documents re-analysed per transaction: short transactions, so ingest and chat go on meanwhile. */
const BATCH = 100;

export interface ReindexProgress {
  done: number;
  total: number;
}

/**
 * Re-analyses a tenant's chunks after a change to text analysis (a text-search configuration, its
 * stop words or dictionaries): each chunk's full-text vector is generated again from its title,
 * heading path and text, and its BM25 statistics are taken off before and put back after, in the
 * same transaction, so the tenant's statistics stay exact while it runs. Documents go in id order,
 * BATCH per transaction; `onProgress` hears after each batch.
 */
export async function reindexTenant(
  repository: ReindexRepository,
  tenantId: string,
  onProgress: (p: ReindexProgress) => void = () => undefined,
): Promise<ReindexProgress> {
  const total = await repository.documentCount(tenantId);
  let done = 0;
  let after = '0';
  onProgress({ done, total });
  for (;;) {
    const ids = await repository.reanalyseAfter(tenantId, after, BATCH);
    if (ids.length === 0) break;
    after = ids[ids.length - 1];
    done += ids.length;
    onProgress({ done: Math.min(done, total), total: Math.max(total, done) });
  }
  return { done, total: Math.max(total, done) };
}

/** `[##########..........]  512/1024 documents` for a terminal. */
export function progressBar({ done, total }: ReindexProgress, width = 30): string {
  const share = total > 0 ? done / total : 1;
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(String(total).length)}/${total} documents`;
}
