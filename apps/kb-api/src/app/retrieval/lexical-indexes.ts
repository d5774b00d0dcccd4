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
/** What a chunk of ordinary text costs in the index (retrieval benchmark corpus), to reserve room before a load. */
export const EXPECTED_CHUNK_BYTES = 1_800;
/** A tenant queried within this long is not dropped to make room for another: two tenants that do not fit together would evict each other on every query. */
export const MIN_RESIDENCY_MS = 60_000;
/** After a failed or abandoned load, the tenant is ranked in SQL this long before a load is tried again. */
export const RETRY_AFTER_MS = 30_000;
/** While chunks are being rewritten (the reindex command, one epoch per batch), a tenant is loaded from scratch at most this often; meanwhile the SQL path ranks it. */
export const RELOAD_GAP_MS = 30_000;

interface Entry {
  index?: LexicalIndex;
  /** The counters the index reflects (-1: nothing loaded yet). */
  chunks: number;
  epoch: number;
  work?: Promise<void>;
  /** Bytes set aside while a load from scratch runs (the index is not counted until it is in place). */
  reserved: number;
  lastUsed: number;
  loadedAt: number;
  retryAt: number;
  /** Bytes a chunk of this tenant took when its load outgrew the budget: the admission test's estimate from then on. */
  bytesPerChunk: number;
}

/** A load stopped because the tenant outgrew the budget while it ran. */
class OverBudget extends Error {}

/**
 * Each tenant's in-memory lexical index in this process, kept in step with the database: every
 * query passes the change counters it read with its statistics, and an index behind them is
 * brought up to date first: the live chunk ids are read and compared, chunks gone are dropped and
 * new ones loaded; after a rewrite (a new epoch) the tenant is loaded again from scratch. Another
 * replica's writes reach this one the same way, through the counters, on its next query.
 *
 * Memory is bounded by `budgetBytes` over all tenants, by the index's own estimate of its heap (not
 * by its chunks: text full of one-off tokens costs far more a chunk). Room is reserved before a load
 * from scratch, the least recently queried tenants idle for MIN_RESIDENCY_MS are dropped to make
 * it, loads from scratch run one at a time, and a load that outgrows the budget is abandoned. A
 * tenant that does not fit, one loading in the background, one whose load failed (for
 * RETRY_AFTER_MS) or one being rewritten is ranked by the SQL path instead, which gives the same
 * BM25 over a prefiltered candidate set.
 */
export class LexicalIndexes {
  private readonly logger = new Logger(LexicalIndexes.name);
  private readonly entries = new Map<string, Entry>();
  /** Questions whose BM25 statistics came from a held index, and those that read them from the database (kb_retrieval_statistics_total). */
  readonly statistics = { index: 0, database: 0 };
  /** Loads from scratch, one after another. */
  private loads: Promise<unknown> = Promise.resolve();
  /** Loads from scratch running or queued: a query waits for its small tenant's load only when none is ahead of it. */
  private pendingLoads = 0;

  constructor(
    private readonly repository: LexicalIndexRepository,
    private readonly budgetBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes held or reserved over all tenants. */
  get heldBytes(): number {
    let n = 0;
    for (const e of this.entries.values()) n += Math.max(e.index?.bytes ?? 0, e.reserved);
    return n;
  }

  /** Chunks held over all tenants. */
  get held(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.index?.size ?? 0;
    return n;
  }

  /**
   * Loads, one after the other in the background, the tenants too large to load while a query
   * waits, largest first, as many as the budget holds: a new process then ranks them in memory from
   * its first minutes instead of answering them in SQL until each tenant's first query has loaded it.
   * Called once the HTTP app is configured (http-options.ts); failures are logged, never thrown.
   */
  async prewarm(): Promise<void> {
    let tenants: Array<{ tenant_id: string; chunks: number }>;
    try {
      tenants = await this.repository.largestTenants(INLINE_BUILD_CHUNKS);
    } catch (e) {
      this.logger.warn(`lexical index prewarm skipped: ${messageOf(e)}`);
      return;
    }
    for (const { tenant_id, chunks } of tenants) {
      try {
        const generation = await runAsTenant(tenant_id, () => this.repository.generationOf(tenant_id));
        const entry = this.entryOf(tenant_id);
        if (entry.work) {
          await entry.work;
          continue;
        }
        // Prewarm only fills free room: it never drops a tenant (it would drop the ones it loaded first).
        if (this.fresh(entry, generation) || chunks * EXPECTED_CHUNK_BYTES > this.budgetBytes - this.heldBytes) continue;
        await this.start(tenant_id, entry, generation, chunks, false);
      } catch (e) {
        this.logger.warn(`lexical index prewarm of tenant ${tenant_id} failed: ${messageOf(e)}`);
      }
    }
  }

  /**
   * The tenant's index as of `generation` or later, or undefined when the caller should rank in
   * SQL. `liveChunks` is the tenant's live chunk count from its statistics.
   */
  async current(tenantId: string, generation: ChunkGeneration, liveChunks: number): Promise<LexicalIndex | undefined> {
    if (liveChunks * Math.max(EXPECTED_CHUNK_BYTES, this.entries.get(tenantId)?.bytesPerChunk ?? 0) > this.budgetBytes) {
      const entry = this.entries.get(tenantId);
      if (entry && !entry.work) this.entries.delete(tenantId);
      return undefined;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const entry = this.entryOf(tenantId);
      entry.lastUsed = this.now();
      if (entry.index && !entry.work && this.fresh(entry, generation)) {
        this.entries.delete(tenantId);
        this.entries.set(tenantId, entry);
        return entry.index;
      }
      if (!entry.work && this.now() < entry.retryAt) return undefined;
      const rewritten = entry.index !== undefined && entry.epoch < generation.epoch;
      if (!entry.work && rewritten && this.now() - entry.loadedAt < RELOAD_GAP_MS) return undefined;
      const refresh = entry.index !== undefined && !rewritten;
      // A refresh reads the ids and the few new chunks: the query waits for it. A load from scratch is waited for only when
      // the tenant is small and no other load is ahead of it; otherwise it runs on while the SQL path answers.
      const loadsAhead = this.pendingLoads;
      if (!entry.work) this.start(tenantId, entry, generation, liveChunks, true);
      if (!refresh && (liveChunks > INLINE_BUILD_CHUNKS || loadsAhead > 0)) return undefined;
      await entry.work;
    }
    return undefined;
  }

  /**
   * The tenant's index as loaded, with the change counters it reflects, when one is held and no
   * refresh or load of it is running; undefined otherwise (the caller then reads the counters and
   * asks `current`). The caller learns whether the database has moved on since from the counters
   * its read-back returns with the chunks.
   */
  loaded(tenantId: string): { index: LexicalIndex; generation: ChunkGeneration } | undefined {
    const entry = this.entries.get(tenantId);
    if (!entry?.index || entry.work) return undefined;
    entry.lastUsed = this.now();
    this.entries.delete(tenantId);
    this.entries.set(tenantId, entry);
    return { index: entry.index, generation: { chunks: entry.chunks, epoch: entry.epoch } };
  }

  private entryOf(tenantId: string): Entry {
    let entry = this.entries.get(tenantId);
    if (!entry) this.entries.set(tenantId, (entry = { chunks: -1, epoch: -1, reserved: 0, lastUsed: this.now(), loadedAt: 0, retryAt: 0, bytesPerChunk: 0 }));
    return entry;
  }

  private fresh(entry: Entry, generation: ChunkGeneration): boolean {
    return entry.index !== undefined && entry.epoch >= generation.epoch && entry.chunks >= generation.chunks;
  }

  /**
   * Starts bringing the entry up to `generation` unless it is already being brought up (answers its `work`); never
   * rejects: a failure is logged and retried after RETRY_AFTER_MS. `evict`: whether other tenants may be dropped for room.
   */
  private start(tenantId: string, entry: Entry, generation: ChunkGeneration, liveChunks: number, evict: boolean): Promise<void> {
    if (entry.work) return entry.work;
    const fromScratch = !entry.index || entry.epoch < generation.epoch;
    const run = () =>
      runAsTenant(tenantId, () => (fromScratch ? this.load(tenantId, entry, generation, liveChunks, evict) : this.refresh(tenantId, entry, generation)));
    let work: Promise<void>;
    if (fromScratch) {
      this.pendingLoads++;
      const queued = this.loads.then(run, run).finally(() => this.pendingLoads--);
      this.loads = queued;
      work = queued;
    } else work = run();
    const settled: Promise<void> = work
      .catch((e: unknown) => {
        entry.retryAt = this.now() + RETRY_AFTER_MS;
        if (!(e instanceof OverBudget)) this.logger.warn(`lexical index of tenant ${tenantId} not loaded: ${messageOf(e)}`);
      })
      .finally(() => {
        if (entry.work !== settled) return;
        entry.work = undefined;
        entry.reserved = 0;
      });
    entry.work = settled;
    return settled;
  }

  /** The tenant from scratch, into a new index that replaces the old one when complete. */
  private async load(tenantId: string, entry: Entry, generation: ChunkGeneration, liveChunks: number, evict: boolean): Promise<void> {
    entry.index = undefined;
    entry.reserved = liveChunks * Math.max(EXPECTED_CHUNK_BYTES, entry.bytesPerChunk);
    if (!this.makeRoom(tenantId, evict)) throw new OverBudget('no room');
    const ids = await this.repository.liveChunkIds(tenantId);
    const index = new LexicalIndex();
    for (let i = 0; i < ids.length; i += LOAD_BATCH) {
      for (const row of await this.repository.chunks(tenantId, ids.slice(i, i + LOAD_BATCH))) index.add(row);
      entry.reserved = Math.max(entry.reserved, index.bytes);
      if (!this.makeRoom(tenantId, evict)) {
        entry.bytesPerChunk = index.bytes / Math.max(1, index.size);
        throw new OverBudget(`tenant ${tenantId} outgrew the budget`);
      }
    }
    entry.index = index;
    entry.chunks = generation.chunks;
    entry.epoch = generation.epoch;
    entry.loadedAt = this.now();
    entry.lastUsed = Math.max(entry.lastUsed, entry.loadedAt);
  }

  /** The live chunk ids compared with the index: chunks gone dropped, new ones loaded. */
  private async refresh(tenantId: string, entry: Entry, generation: ChunkGeneration): Promise<void> {
    const index = entry.index!;
    const ids = await this.repository.liveChunkIds(tenantId);
    const live = new Set(ids);
    for (const id of [...index.chunkIds()]) if (!live.has(id)) index.remove(id);
    const missing = ids.filter((id) => !index.has(id));
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      for (const row of await this.repository.chunks(tenantId, missing.slice(i, i + LOAD_BATCH))) index.add(row);
      if (!this.makeRoom(tenantId, true)) {
        entry.index = undefined;
        entry.bytesPerChunk = index.bytes / Math.max(1, index.size);
        throw new OverBudget(`tenant ${tenantId} outgrew the budget`);
      }
    }
    entry.chunks = generation.chunks;
  }

  /**
   * Whether what is held and reserved fits the budget, after dropping (when `evict`) the least recently queried other
   * tenants idle for MIN_RESIDENCY_MS and not loading, and only if dropping them makes it fit.
   */
  private makeRoom(tenantId: string, evict: boolean): boolean {
    let over = this.heldBytes - this.budgetBytes;
    if (over <= 0) return true;
    if (!evict) return false;
    const idle = [...this.entries].filter(([other, e]) => other !== tenantId && !e.work && this.now() - e.lastUsed >= MIN_RESIDENCY_MS);
    if (idle.reduce((n, [, e]) => n + (e.index?.bytes ?? 0), 0) < over) return false;
    for (const [other, e] of idle) {
      if (over <= 0) break;
      over -= e.index?.bytes ?? 0;
      this.entries.delete(other);
    }
    return true;
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
