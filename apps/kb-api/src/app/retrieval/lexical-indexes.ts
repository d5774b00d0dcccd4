import { Logger } from '@nestjs/common';
import { runAsTenant } from '@platform/database';
import { LexicalIndex } from './lexical-index';
import type { LexicalIndexRepository } from './lexical-index.repository';

/** The tenant's chunk change counters (kb_chunk_generations) a query read with its term statistics. */
export interface ChunkGeneration {
  /** Bumped by every change to the set of live chunks. */
  chunks: number;
  /** Bumped when chunk rows are rewritten in place (the reindex command): their lexemes may differ. */
  epoch: number;
}

/** A tenant this small is loaded while its first query waits (a few hundred milliseconds at most); a larger one in the background. */
export const INLINE_BUILD_CHUNKS = 20_000;
/** Chunks read per round trip while loading: the event loop serves other requests between batches. */
const LOAD_BATCH = 1_000;

interface Entry {
  index?: LexicalIndex;
  /** The counters the index reflects (-1: nothing loaded yet). */
  chunks: number;
  epoch: number;
  work?: Promise<void>;
}

/**
 * Each tenant's in-memory lexical index in this process, kept in step with the database: every
 * query passes the change counters it read with its statistics, and an index behind them is
 * brought up to date first: the live chunk ids are read and compared, chunks gone are dropped and
 * new ones loaded; after a rewrite (a new epoch) the tenant is loaded again from scratch. Another
 * replica's writes reach this one the same way, through the counters, on its next query.
 *
 * Memory is bounded by `budget` chunks over all tenants (the least recently queried tenants are
 * dropped first); a tenant larger than the budget, or one still loading in the background, is
 * ranked by the SQL path instead, which gives the same BM25 over a prefiltered candidate set.
 */
export class LexicalIndexes {
  private readonly logger = new Logger(LexicalIndexes.name);
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly repository: LexicalIndexRepository,
    private readonly budget: number,
  ) {}

  /**
   * Loads, one after the other in the background, the tenants too large to load while a query
   * waits, largest first, as many as the budget holds: a new process then ranks them in memory from
   * its first minutes instead of answering them in SQL until each tenant's first query has loaded it.
   * Called once the HTTP app is configured (http-options.ts); failures are logged, never thrown.
   */
  async prewarm(): Promise<void> {
    try {
      let room = this.budget;
      for (const { tenant_id, chunks } of await this.repository.largestTenants(INLINE_BUILD_CHUNKS)) {
        if (chunks > room) continue;
        room -= chunks;
        const generation = await runAsTenant(tenant_id, () => this.repository.generationOf(tenant_id));
        const entry: Entry = this.entries.get(tenant_id) ?? { chunks: -1, epoch: -1 };
        this.entries.set(tenant_id, entry);
        if (entry.work) continue;
        entry.work = this.update(tenant_id, entry, generation, chunks).finally(() => (entry.work = undefined));
        await entry.work;
      }
    } catch (e) {
      this.logger.warn(`lexical index prewarm stopped: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Chunks held over all tenants. */
  get held(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.index?.size ?? 0;
    return n;
  }

  /**
   * The tenant's index as of `generation` or later, or undefined when the caller should rank in
   * SQL (disabled, over the budget, loading in the background, or the load failed). `liveChunks`
   * is the tenant's live chunk count from its statistics.
   */
  async current(tenantId: string, generation: ChunkGeneration, liveChunks: number): Promise<LexicalIndex | undefined> {
    if (liveChunks > this.budget) {
      if (!this.entries.get(tenantId)?.work) this.entries.delete(tenantId);
      return undefined;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      let entry = this.entries.get(tenantId);
      if (entry?.index && !entry.work && entry.epoch === generation.epoch && entry.chunks >= generation.chunks) {
        this.entries.delete(tenantId);
        this.entries.set(tenantId, entry);
        return entry.index;
      }
      if (!entry) this.entries.set(tenantId, (entry = { chunks: -1, epoch: -1 }));
      const current = entry;
      if (!current.work) {
        current.work = this.update(tenantId, current, generation, liveChunks)
          .catch((e: unknown) => this.logger.warn(`lexical index of tenant ${tenantId} not loaded: ${e instanceof Error ? e.message : String(e)}`))
          .finally(() => (current.work = undefined));
      }
      // A refresh reads the ids and the few new chunks: the query waits for it. A first load (or a reload after a rewrite)
      // of a large tenant runs on while the SQL path answers.
      const refresh = current.index !== undefined && current.epoch === generation.epoch;
      if (!refresh && liveChunks > INLINE_BUILD_CHUNKS) return undefined;
      await current.work;
    }
    return undefined;
  }

  private update(tenantId: string, entry: Entry, generation: ChunkGeneration, liveChunks: number): Promise<void> {
    return runAsTenant(tenantId, async () => {
      const ids = await this.repository.liveChunkIds(tenantId);
      let index = entry.index;
      if (!index || entry.epoch !== generation.epoch) {
        entry.index = undefined;
        this.makeRoom(tenantId, Math.max(liveChunks, ids.length));
        index = new LexicalIndex();
      }
      const live = new Set(ids);
      for (const id of [...index.chunkIds()]) if (!live.has(id)) index.remove(id);
      const missing = ids.filter((id) => !index!.has(id));
      for (let i = 0; i < missing.length; i += LOAD_BATCH) {
        for (const row of await this.repository.chunks(tenantId, missing.slice(i, i + LOAD_BATCH))) index.add(row);
      }
      entry.index = index;
      entry.chunks = generation.chunks;
      entry.epoch = generation.epoch;
      if (this.held > this.budget) this.makeRoom(tenantId, 0);
    });
  }

  /** Drops the least recently queried other tenants until `incoming` more chunks fit in the budget. */
  private makeRoom(tenantId: string, incoming: number): void {
    for (const [other, e] of this.entries) {
      if (this.held + incoming <= this.budget) return;
      if (other === tenantId || e.work) continue;
      this.entries.delete(other);
    }
  }
}
