import { markdownLiteral } from '@platform/guardrails';

/** A concept the build found: a shared section heading or a frequent key term, with the documents using it. */
export interface ConceptCandidate {
  key: string;
  label: string;
  kind: 'heading' | 'term';
  /** document id → occurrences */
  documents: Map<number, number>;
}

export interface ExistingConcept {
  id: number;
  key: string;
  aliases: string[];
  suppressed: boolean;
}

/**
 * Folds the candidates into the concepts an admin already shaped: a candidate whose key is an alias
 * of a merged concept counts for that concept, one of a deleted (suppressed) concept is dropped.
 * A heading and a term with the same key are one concept (the heading's label wins). The result
 * is ranked by documents, then key, and cut at `max`: the same corpus always gives the same list.
 */
export function selectConcepts(candidates: ConceptCandidate[], existing: ExistingConcept[], max: number): ConceptCandidate[] {
  const owner = new Map<string, ExistingConcept>();
  for (const c of existing) {
    owner.set(c.key, c);
    for (const a of c.aliases) owner.set(a, c);
  }
  // `own`: the label and kind come from the concept's own key, not from one of its aliases.
  const merged = new Map<string, ConceptCandidate & { own: boolean }>();
  for (const cand of candidates) {
    const target = owner.get(cand.key);
    if (target?.suppressed) continue;
    const key = target ? target.key : cand.key;
    const own = cand.key === key;
    let into = merged.get(key);
    if (!into) merged.set(key, (into = { key, label: own ? cand.label : key, kind: cand.kind, documents: new Map(), own }));
    else if (own && (!into.own || (cand.kind === 'heading' && into.kind === 'term'))) Object.assign(into, { label: cand.label, kind: cand.kind, own: true });
    for (const [doc, n] of cand.documents) into.documents.set(doc, (into.documents.get(doc) ?? 0) + n);
  }
  return [...merged.values()]
    .map(({ own: _own, ...c }) => c)
    .sort((a, b) => b.documents.size - a.documents.size || a.key.localeCompare(b.key))
    .slice(0, max);
}

export interface PageDocument {
  id: number;
  slug: string;
  title: string;
  project_key: string;
  source_path: string;
  occurrences: number;
  evidence_rank: number;
  evidence_label: string | null;
}

/** A `[[slug]]` link when the slug is one ingest derives, else the slug as literal text. */
const wikilink = (slug: string) => (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) ? `[[${slug}]]` : markdownLiteral(slug));

/**
 * The generated concept page: its documents strongest evidence first, then the related concepts.
 * Every label comes from ingested content (titles, headings, paths) or an admin, so each is put in
 * as one literal line of text: no label can add a line, a section, a link, an image or HTML.
 */
export function renderConceptPage(
  concept: { label: string; kind: 'heading' | 'term'; aliases: string[] },
  documents: PageDocument[],
  related: Array<{ label: string; shared: number }>,
): string {
  const text = markdownLiteral;
  const origin = concept.kind === 'heading' ? 'a section heading shared by' : 'a key term used in';
  const lines = [`# ${text(concept.label)}`, '', `${capitalize(origin)} ${documents.length} document${documents.length === 1 ? '' : 's'}.`];
  if (concept.aliases.length) lines.push('', `Also known as: ${concept.aliases.map(text).join(', ')}.`);
  lines.push('', '## Documents', '');
  const ordered = [...documents].sort((a, b) => b.evidence_rank - a.evidence_rank || b.occurrences - a.occurrences || a.id - b.id);
  for (const d of ordered) {
    const tier = d.evidence_label ? `${text(d.evidence_label)}, rank ${d.evidence_rank}` : `rank ${d.evidence_rank}`;
    lines.push(`- ${wikilink(d.slug)} ${text(d.title)} (${text(`${d.project_key}/${d.source_path}`)}; evidence ${tier}; ${d.occurrences} mention${d.occurrences === 1 ? '' : 's'})`);
  }
  if (related.length) {
    lines.push('', '## Related concepts', '');
    for (const r of related) lines.push(`- ${text(r.label)} (${r.shared} shared document${r.shared === 1 ? '' : 's'})`);
  }
  return `${lines.join('\n')}\n`;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** For each concept, the concepts sharing at least `min` of its documents, most shared first. */
export function relatedConcepts(concepts: Array<{ key: string; documents: Iterable<number> }>, min = 2, limit = 10): Map<string, Array<{ key: string; shared: number }>> {
  const byDocument = new Map<number, string[]>();
  for (const c of concepts) for (const d of c.documents) (byDocument.get(d) ?? byDocument.set(d, []).get(d)!).push(c.key);
  const pairs = new Map<string, Map<string, number>>();
  for (const keys of byDocument.values()) {
    for (const a of keys) {
      const row = pairs.get(a) ?? pairs.set(a, new Map()).get(a)!;
      for (const b of keys) if (a !== b) row.set(b, (row.get(b) ?? 0) + 1);
    }
  }
  const out = new Map<string, Array<{ key: string; shared: number }>>();
  for (const [a, row] of pairs) {
    out.set(
      a,
      [...row].filter(([, n]) => n >= min).map(([key, shared]) => ({ key, shared })).sort((x, y) => y.shared - x.shared || x.key.localeCompare(y.key)).slice(0, limit),
    );
  }
  return out;
}
