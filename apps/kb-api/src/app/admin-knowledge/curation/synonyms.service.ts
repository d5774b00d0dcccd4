import { Injectable } from '@nestjs/common';
import { pageWindow, toPage } from '../../admin/pagination';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { contentTerms } from '../../retrieval/query-terms';
import { synonymCache } from '../../retrieval/synonyms';
import { ListSynonymsQueryDto, SynonymSetDto } from './curation.dto';
import { SynonymsRepository } from './synonyms.repository';

/** Sets per tenant: retrieval reads them all for every question, so their number is bounded. */
export const MAX_SYNONYM_SETS = 1_000;

/**
 * Synonym sets used by retrieval: a question word that is a one-word member of a set is searched
 * together with the set's other members. Every change drops the tenant's cached sets at once.
 */
@Injectable()
export class SynonymsService {
  constructor(private readonly synonyms: SynonymsRepository) {}

  async list(tenantId: string, q: ListSynonymsQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.synonyms.list(tenantId, { project: q.project, search: q.search }, w);
    return toPage(rows, total, w);
  }

  async get(tenantId: string, id: string) {
    const row = await this.synonyms.find(tenantId, id);
    if (!row) throw new KbError(404, 'not_found', 'Synonym set not found.');
    return { data: row };
  }

  async create(tenantId: string, body: SynonymSetDto) {
    const terms = normalizeTerms(body.terms);
    if ((await this.synonyms.count(tenantId)) >= MAX_SYNONYM_SETS) throw new KbValidationError({ terms: [`A tenant can keep at most ${MAX_SYNONYM_SETS} synonym sets.`] });
    const row = await this.synonyms.create(tenantId, body.project_key ?? null, terms);
    synonymCache.invalidate(tenantId);
    return { data: row };
  }

  async update(tenantId: string, id: string, body: SynonymSetDto) {
    const row = await this.synonyms.update(tenantId, id, body.project_key ?? null, normalizeTerms(body.terms));
    if (!row) throw new KbError(404, 'not_found', 'Synonym set not found.');
    synonymCache.invalidate(tenantId);
    return { data: row };
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!(await this.synonyms.remove(tenantId, id))) throw new KbError(404, 'not_found', 'Synonym set not found.');
    synonymCache.invalidate(tenantId);
  }
}

/** Trimmed, lower-cased, single-spaced and distinct; each must hold a searchable word, and two must remain. */
export function normalizeTerms(given: string[]): string[] {
  const errors: Record<string, string[]> = {};
  const out: string[] = [];
  given.forEach((raw, i) => {
    const term = raw.trim().toLowerCase().normalize('NFKC').replace(/\s+/g, ' ');
    if (contentTerms(term).length === 0) (errors[`terms.${i}`] ??= []).push('Each term must contain a searchable word (not only stopwords or punctuation).');
    else if (!out.includes(term)) out.push(term);
  });
  if (!Object.keys(errors).length && out.length < 2) errors['terms'] = ['The terms field must have at least 2 distinct terms.'];
  if (Object.keys(errors).length) throw new KbValidationError(errors);
  return out;
}
