/** Canonical document types and the folder of the project each is promoted into (reference kb §2.6). */
export const CANONICAL_FOLDERS = {
  'project-index': '.',
  'module-kb': 'modules',
  decision: 'decisions',
  runbook: 'runbooks',
  standard: 'standards',
  incident: 'incidents',
  integration: 'integrations',
  'domain-concept': 'domain-concepts',
  'rejected-approach': 'rejected',
} as const;
export type CanonicalType = keyof typeof CANONICAL_FOLDERS;
export const CANONICAL_TYPES = Object.keys(CANONICAL_FOLDERS) as CanonicalType[];

export const CANONICAL_STATUSES = ['draft', 'review', 'accepted', 'superseded', 'deprecated', 'archived'] as const;
export type CanonicalStatus = (typeof CANONICAL_STATUSES)[number];

export const SLUG = /^[a-z0-9][a-z0-9-]*$/;
export const MAX_SLUG = 120;

/** Where a promoted document lives inside its project: `<folder>/<slug>.md`. */
export function canonicalPath(type: CanonicalType, slug: string): string {
  const folder = CANONICAL_FOLDERS[type];
  return folder === '.' ? `${slug}.md` : `${folder}/${slug}.md`;
}
