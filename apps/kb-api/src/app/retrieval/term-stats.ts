import { DataSource } from 'typeorm';
import { TEXT_SEARCH_CONFIGS } from '../ingest/language';

/** A term found in more than this share of a tenant's chunks says little about a chunk's topic. */
export const COMMON_SHARE = 0.05;
const TTL_MS = 5 * 60_000;
/** Zero counts and the tenant's size change as soon as documents arrive: they are kept briefly. */
const SHORT_TTL_MS = 10_000;
const MAX_ENTRIES = 50_000;

export interface TermStat {
  /** The term as a to_tsquery operand: a quoted lexeme, or a parenthesised OR of it and its synonyms. */
  term: string;
  /** Chunks of the tenant containing the term (stemmed per language), counted up to the common limit. */
  df: number;
  /** df above the common limit: used to score, not to find candidates. */
  common: boolean;
  idf: number;
}

/**
 * Chunk frequencies of query terms per tenant, for IDF weights. Counting stops at the common limit,
 * so a very frequent term costs a bounded index scan; results are cached for a few minutes, which
 * is as fresh as a weight needs to be.
 */
export class TermStats {
  private readonly cache = new Map<string, { value: number; until: number }>();

  constructor(private readonly db: DataSource) {}

  /** Stats of to_tsquery operands (see termQuery), one per question term, in order. */
  async of(tenantId: string, terms: string[]): Promise<TermStat[]> {
    const total = await this.cached(`${tenantId}\0`, async () => {
      const [{ n }] = await this.db.query(`SELECT count(*)::int AS n FROM kb_chunks WHERE tenant_id = $1`, [tenantId]);
      return n as number;
    }, SHORT_TTL_MS);
    const limit = Math.max(20, Math.ceil(total * COMMON_SHARE));
    const unknown = terms.filter((t) => !this.fresh(`${tenantId}\0${limit}\0${t}`));
    if (unknown.length) {
      // Each term is parsed once per language; every (term, language) count is a bounded GIN scan.
      const rows: Array<{ i: number; df: number }> = await this.db.query(
        `WITH q AS (
           SELECT u.i, l.cfg::regconfig AS cfg, to_tsquery(l.cfg::regconfig, u.t) AS tq
             FROM unnest($2::text[]) WITH ORDINALITY AS u(t, i), unnest('{${TEXT_SEARCH_CONFIGS.join(',')}}'::text[]) AS l(cfg))
         SELECT q.i::int AS i,
                sum((SELECT count(*) FROM (SELECT 1 FROM kb_chunks c WHERE c.tenant_id = $1 AND c.language = q.cfg AND c.tsv @@ q.tq LIMIT $3) s))::int AS df
           FROM q GROUP BY q.i`,
        [tenantId, unknown, limit + 1],
      );
      for (const r of rows) this.put(`${tenantId}\0${limit}\0${unknown[r.i - 1]}`, r.df, r.df === 0 ? SHORT_TTL_MS : TTL_MS);
    }
    return terms.map((term) => {
      const df = this.fresh(`${tenantId}\0${limit}\0${term}`)!.value;
      const n = Math.max(total, df);
      return { term, df, common: df > limit, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
    });
  }

  private fresh(key: string) {
    const hit = this.cache.get(key);
    return hit && Date.now() < hit.until ? hit : undefined;
  }

  private put(key: string, value: number, ttlMs: number) {
    this.cache.delete(key);
    this.cache.set(key, { value, until: Date.now() + ttlMs });
    // Oldest first: a Map iterates in insertion order.
    while (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }

  private async cached(key: string, load: () => Promise<number>, ttlMs: number): Promise<number> {
    const hit = this.fresh(key);
    if (hit) return hit.value;
    const value = await load();
    this.put(key, value, ttlMs);
    return value;
  }
}
