import { Injectable } from '@nestjs/common';
import { PageQueryDto, pageWindow, toPage } from '../../admin/pagination';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { isTopicWord } from '../analyses/content-words';
import { CorpusRepository } from '../analyses/corpus.repository';
import { slugify } from '../slug';
import { evidenceLabel } from '../settings/evidence-tiers';
import type { AutowikiSettings, EvidenceTiers } from '../settings/knowledge-settings';
import { KnowledgeSettingsService } from '../settings/settings.service';
import { AutowikiRepository, ConceptDocumentRow, WikiPageWrite } from './autowiki.repository';
import { ConceptCandidate, relatedConcepts, renderConceptPage, selectConcepts } from './concepts';

/** Shortest word taken as a key term: shorter ones are mostly abbreviations of other words. */
const MIN_TERM_LENGTH = 4;
/** Term rows read per build before filtering; bounds a build's work on a large corpus. */
const TERM_SCAN = 2_000;

/**
 * The auto-wiki: deterministic concept extraction over the indexed text (no model). Concepts are
 * section headings shared by several documents and key terms used by several documents but not by
 * most; each gets a generated page listing its documents, strongest evidence tier first.
 */
@Injectable()
export class AutowikiService {
  constructor(
    private readonly wiki: AutowikiRepository,
    private readonly corpus: CorpusRepository,
    private readonly settings: KnowledgeSettingsService,
  ) {}

  async build(tenantId: string) {
    const started = performance.now();
    const [config, tiers] = await Promise.all([this.settings.of(tenantId, 'autowiki'), this.settings.of(tenantId, 'evidence_tiers')]);
    if (!config.enabled) throw new KbError(409, 'autowiki_disabled', 'The auto-wiki is disabled in the autowiki settings.');
    const documents = await this.corpus.documentCount(tenantId, null);
    const candidates = await this.candidates(tenantId, config, documents);
    const existing = await this.wiki.existing(tenantId);
    const aliases = new Map(existing.map((c) => [c.key, c.aliases]));
    const concepts = selectConcepts(candidates, existing, config.max_concepts);
    const ids = await this.wiki.replaceConcepts(tenantId, concepts);
    const pages = await this.pages(tenantId, concepts.map((c) => ({ ...c, id: ids.get(c.key)!, aliases: aliases.get(c.key) ?? [] })), tiers);
    await this.wiki.writePages(tenantId, pages, true);
    return {
      documents_considered: documents,
      concepts: concepts.length,
      headings: concepts.filter((c) => c.kind === 'heading').length,
      terms: concepts.filter((c) => c.kind === 'term').length,
      pages: pages.length,
      duration_ms: Math.round(performance.now() - started),
    };
  }

  private async candidates(tenantId: string, config: AutowikiSettings, documents: number): Promise<ConceptCandidate[]> {
    const minDocs = config.min_document_frequency;
    // A word or heading in most documents is the corpus' vocabulary, not a concept.
    const maxDocs = Math.max(minDocs, Math.floor((documents * config.max_document_share) / 100));
    const excluded = new Set(config.exclude_terms);
    const out: ConceptCandidate[] = [];
    if (config.include_headings) {
      for (const h of await this.corpus.sharedHeadings(tenantId, null, minDocs, config.max_concepts * 2)) {
        if (excluded.has(h.key) || h.document_ids.length > maxDocs || h.key.length > 120) continue;
        out.push({ key: h.key, label: h.label, kind: 'heading', documents: new Map(h.document_ids.map((d) => [d, 1])) });
      }
    }
    if (config.include_terms) {
      const terms = (await this.corpus.topTerms(tenantId, null, TERM_SCAN, MIN_TERM_LENGTH))
        .filter((t) => t.documents >= minDocs && t.documents <= maxDocs && !excluded.has(t.term) && isTopicWord(t.term))
        .slice(0, config.max_concepts);
      const byTerm = new Map<string, Map<number, number>>(terms.map((t) => [t.term, new Map()]));
      for (const r of await this.corpus.termDocuments(tenantId, null, terms.map((t) => t.term))) byTerm.get(r.term)?.set(r.document_id, r.occurrences);
      for (const [term, docs] of byTerm) out.push({ key: term, label: term, kind: 'term', documents: docs });
    }
    return out;
  }

  /** The page of each concept, with its related concepts among the given ones. */
  private async pages(tenantId: string, concepts: Array<ConceptCandidate & { id: number; aliases: string[] }>, tiers: EvidenceTiers): Promise<WikiPageWrite[]> {
    const docs = new Map((await this.wiki.documentsByIds(tenantId, [...new Set(concepts.flatMap((c) => [...c.documents.keys()]))])).map((d) => [d.id, d]));
    const related = relatedConcepts(concepts.map((c) => ({ key: c.key, documents: c.documents.keys() })));
    const labels = new Map(concepts.map((c) => [c.key, c.label]));
    const slugs = new Set<string>();
    return concepts.map((c) => {
      const rows: ConceptDocumentRow[] = [...c.documents].flatMap(([id, occurrences]) => (docs.has(id) ? [{ ...docs.get(id)!, occurrences }] : []));
      let slug = `concept-${slugify(c.key, 'concept')}`;
      if (slugs.has(slug)) slug = `${slug}-${c.id}`;
      slugs.add(slug);
      const body = renderConceptPage(
        c,
        rows.map((d) => {
          const e = evidenceLabel(d, tiers);
          return { ...d, evidence_rank: e.rank, evidence_label: e.label };
        }),
        (related.get(c.key) ?? []).map((r) => ({ label: labels.get(r.key)!, shared: r.shared })),
      );
      return { concept_id: c.id, slug, title: c.label, body, document_count: rows.length };
    });
  }

  async concepts(tenantId: string, q: PageQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.wiki.listConcepts(tenantId, q.search, w);
    return toPage(rows, total, w);
  }

  async concept(tenantId: string, id: string) {
    const concept = await this.wiki.concept(tenantId, id);
    if (!concept) throw new KbError(404, 'not_found', 'Concept not found.');
    const [documents, tiers, page] = await Promise.all([this.wiki.conceptDocuments(tenantId, id), this.settings.of(tenantId, 'evidence_tiers'), this.wiki.page(tenantId, id)]);
    return {
      data: {
        ...concept,
        documents: documents.map((d) => ({ ...d, evidence: evidenceLabel(d, tiers) })),
        page: page ? { slug: page.slug, title: page.title } : null,
      },
    };
  }

  /** Merges a concept into another: documents and names move to the target, whose page is rebuilt. */
  async merge(tenantId: string, id: string, into: number) {
    const intoId = String(into);
    if (intoId === id) throw new KbValidationError({ into: ['A concept cannot be merged into itself.'] });
    if (!(await this.wiki.concept(tenantId, id))) throw new KbError(404, 'not_found', 'Concept not found.');
    if (!(await this.wiki.concept(tenantId, intoId))) throw new KbValidationError({ into: ['The selected concept is invalid.'] });
    await this.wiki.merge(tenantId, id, intoId);
    const target = (await this.wiki.concept(tenantId, intoId))!;
    const documents = await this.wiki.conceptDocuments(tenantId, intoId);
    const tiers = await this.settings.of(tenantId, 'evidence_tiers');
    const existing = await this.wiki.page(tenantId, intoId);
    const [page] = await this.pages(tenantId, [{ ...target, documents: new Map(documents.map((d) => [d.id, d.occurrences])) }], tiers);
    await this.wiki.writePages(tenantId, [{ ...page, slug: existing?.slug ?? page.slug }], false);
    return this.concept(tenantId, intoId);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!(await this.wiki.suppress(tenantId, id))) throw new KbError(404, 'not_found', 'Concept not found.');
  }

  async wikiPages(tenantId: string, q: PageQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.wiki.listPages(tenantId, q.search, w);
    return toPage(rows, total, w);
  }

  async wikiPage(tenantId: string, conceptId: string) {
    const page = await this.wiki.page(tenantId, conceptId);
    if (!page) throw new KbError(404, 'not_found', 'Wiki page not found.');
    return { data: page };
  }
}
