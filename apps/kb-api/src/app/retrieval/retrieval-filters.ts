import type { RetrievalFilters } from './retrieval-types';

/** `docs/**\/*.md` → an anchored regular expression on source_path. */
export function globToRegex(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return `^${re}$`;
}

/**
 * The chat filters as SQL conditions on `d` (kb_documents), each value bound through `p` (which
 * appends it to the caller's parameters and answers its placeholder). Shared by every retrieval
 * path, so a lexical and a vector candidate obey the same filters. `excludeFlagged` leaves out the
 * chunks the ingest screen flagged (`c`, kb_chunks): instructions aimed at the model never reach it.
 */
export function filterClauses(filters: RetrievalFilters, p: (v: unknown) => string, options: { excludeFlagged?: boolean } = {}): string[] {
  const where: string[] = [];
  if (options.excludeFlagged) where.push('NOT c.injection_flagged');
  if (filters.project_keys?.length) where.push(`d.project_key = ANY(${p(filters.project_keys)}::text[])`);
  if (filters.source_types?.length) where.push(`d.source_type = ANY(${p(filters.source_types)}::text[])`);
  if (filters.doc_ids?.length) where.push(`d.id = ANY(${p(filters.doc_ids)}::bigint[])`);
  if (filters.tag_slugs?.length) where.push(`coalesce(d.metadata->'tags', '[]'::jsonb) ?| ${p(filters.tag_slugs)}::text[]`);
  if (filters.canonical_types?.length) where.push(`d.metadata->>'canonical_type' = ANY(${p(filters.canonical_types)}::text[])`);
  if (filters.connector_types?.length) where.push(`d.metadata->>'connector_type' = ANY(${p(filters.connector_types)}::text[])`);
  if (filters.collection_id !== undefined) where.push(`coalesce(d.metadata->'collection_ids', '[]'::jsonb) @> ${p(JSON.stringify([filters.collection_id]))}::jsonb`);
  if (filters.folder_globs?.length) where.push(`d.source_path ~ ANY(${p(filters.folder_globs.map(globToRegex))}::text[])`);
  if (filters.date_from) where.push(`d.updated_at >= ${p(filters.date_from)}::date`);
  if (filters.date_to) where.push(`d.updated_at < (${p(filters.date_to)}::date + 1)`);
  return where;
}
