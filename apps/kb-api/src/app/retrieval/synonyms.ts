import type { Clock } from '@platform/runtime';
import { contentTerms, quoteLexeme } from './query-terms';

/** One synonym set of a tenant; a null project applies to every project. */
export interface SynonymSet {
  project_key: string | null;
  terms: string[];
}

/** Every other member of the sets a question word belongs to, each as its content words (a phrase when several). */
export type Alternatives = Map<string, string[][]>;

/**
 * Another replica learns of a change within this long; the replica that made it at once, through
 * invalidate().
 */
const TTL_MS = 30_000;
const MAX_TENANTS = 10_000;

/** Where a tenant's synonym sets are read (kb_synonym_sets, written by the curation routes). */
export interface SynonymSetSource {
  setsOf(tenantId: string): Promise<SynonymSet[]>;
}

/**
 * The synonym sets of each tenant, cached per process. RetrievalService is provided by several
 * modules (chat, conversations, the widget, MCP), so the cache is one object shared by all its
 * instances and by the admin routes that invalidate it.
 */
export class SynonymCache {
  private readonly byTenant = new Map<string, { sets: SynonymSet[]; until: number }>();

  async setsOf(source: SynonymSetSource, clock: Clock, tenantId: string): Promise<SynonymSet[]> {
    const hit = this.byTenant.get(tenantId);
    if (hit && clock.nowMs() < hit.until) return hit.sets;
    const sets = await source.setsOf(tenantId);
    this.byTenant.delete(tenantId);
    this.byTenant.set(tenantId, { sets, until: clock.nowMs() + TTL_MS });
    while (this.byTenant.size > MAX_TENANTS) this.byTenant.delete(this.byTenant.keys().next().value!);
    return sets;
  }

  invalidate(tenantId: string): void {
    this.byTenant.delete(tenantId);
  }
}

export const synonymCache = new SynonymCache();

/**
 * For each question word that is a one-word member of a set applying to the searched projects (a
 * project-scoped set applies when no project filter is given or the filter names its project), the
 * other members of those sets.
 */
export function alternativesOf(terms: string[], sets: SynonymSet[], projectKeys?: string[]): Alternatives {
  const out: Alternatives = new Map();
  const wanted = new Set(terms);
  for (const set of sets) {
    if (set.project_key !== null && projectKeys?.length && !projectKeys.includes(set.project_key)) continue;
    const members = set.terms.map((t) => contentTerms(t)).filter((words) => words.length > 0);
    for (const [i, words] of members.entries()) {
      if (words.length !== 1 || !wanted.has(words[0])) continue;
      const list = out.get(words[0]) ?? [];
      for (const [j, other] of members.entries()) {
        const key = other.join(' ');
        if (j !== i && key !== words[0] && !list.some((l) => l.join(' ') === key)) list.push(other);
      }
      if (list.length) out.set(words[0], list);
    }
  }
  return out;
}

/**
 * A question word as one to_tsquery operand: the word alone, or the word OR-ed with its synonyms
 * (phrases as `<->` sequences). `weights` restricts every lexeme to those weights (e.g. AB).
 */
export function termQuery(term: string, alternatives: string[][] | undefined, weights = ''): string {
  const lexeme = (w: string) => `${quoteLexeme(w)}${weights ? `:${weights}` : ''}`;
  if (!alternatives?.length) return lexeme(term);
  const phrases = alternatives.map((words) => (words.length === 1 ? lexeme(words[0]) : `(${words.map(lexeme).join(' <-> ')})`));
  return `(${[lexeme(term), ...phrases].join(' | ')})`;
}
