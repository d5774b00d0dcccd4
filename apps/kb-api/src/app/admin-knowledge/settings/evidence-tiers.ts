import type { EvidenceTiers } from './knowledge-settings';

export interface EvidenceLabel {
  rank: number;
  label: string | null;
  /** What decided the rank: a path prefix, a source type, or the default. */
  matched_by: 'path_prefix' | 'source_type' | 'default';
}

const underPrefix = (path: string, prefix: string) => {
  const folder = prefix.replace(/\/+$/, '');
  return path === folder || path.startsWith(`${folder}/`);
};

/**
 * A document's evidence rank under a tenant's tier map: the longest matching path prefix wins,
 * then a tier for its source type, then the default rank.
 */
export function evidenceLabel(doc: { source_path: string; source_type: string }, map: EvidenceTiers): EvidenceLabel {
  let best: { rank: number; label?: string; length: number } | undefined;
  for (const t of map.tiers) {
    if (t.path_prefix === undefined || !underPrefix(doc.source_path, t.path_prefix)) continue;
    if (!best || t.path_prefix.length > best.length) best = { rank: t.rank, label: t.label, length: t.path_prefix.length };
  }
  if (best) return { rank: best.rank, label: best.label ?? null, matched_by: 'path_prefix' };
  const byType = map.tiers.find((t) => t.source_type !== undefined && t.source_type === doc.source_type);
  if (byType) return { rank: byType.rank, label: byType.label ?? null, matched_by: 'source_type' };
  return { rank: map.default_rank, label: null, matched_by: 'default' };
}
