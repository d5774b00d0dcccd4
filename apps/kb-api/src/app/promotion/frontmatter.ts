import { parseDocument } from 'yaml';
import { CANONICAL_STATUSES, CANONICAL_TYPES, CanonicalStatus, CanonicalType, MAX_SLUG, SLUG } from './canonical-types';

/** What a valid draft declares, as `candidates` answers it. */
export interface ParsedDraft {
  doc_id: string | null;
  slug: string;
  type: CanonicalType;
  status: CanonicalStatus;
  title_line: string | null;
  retrieval_priority: number;
  related_slugs: string[];
  supersedes_slugs: string[];
  superseded_by_slugs: string[];
  tags: string[];
  owners: string[];
  summary: string | null;
}

export type DraftCheck =
  | { valid: true; parsed: ParsedDraft }
  | { valid: false; reason: 'no_frontmatter' | 'invalid_frontmatter'; errors: Record<string, string[]> };

export const NO_FRONTMATTER = 'No YAML frontmatter block detected at the top of the document.';
const BLOCK = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const WIKILINK = /^\[\[([^\]]+)\]\]$/;

/**
 * Checks a markdown draft's frontmatter against the promotion rules. Required: `slug` (lower-case
 * letters, digits, hyphens), `type` (a canonical type), `status`. Optional: `id`, `title`,
 * `retrieval_priority` 0–100 (default 50), `related`/`supersedes`/`superseded_by` (slugs or
 * `[[slug]]`), `tags`, `owners`, `summary`. Errors are keyed by field.
 */
export function checkDraft(markdown: string): DraftCheck {
  const block = BLOCK.exec(markdown);
  if (!block) return { valid: false, reason: 'no_frontmatter', errors: { frontmatter: [NO_FRONTMATTER] } };
  const doc = parseDocument(block[1]);
  if (doc.errors.length) return invalid({ frontmatter: [`The frontmatter is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`] });
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return invalid({ frontmatter: ['The frontmatter must be a YAML mapping of fields.'] });
  const fm = data as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);

  const slug = fm['slug'];
  if (slug === undefined || slug === null || slug === '') fail('slug', 'The slug is required.');
  else if (typeof slug !== 'string' || !SLUG.test(slug) || slug.length > MAX_SLUG) fail('slug', `The slug must be lower-case letters, digits and hyphens, starting with a letter or digit (at most ${MAX_SLUG}).`);

  const type = fm['type'];
  if (type === undefined || type === null || type === '') fail('type', 'The type is required.');
  else if (!CANONICAL_TYPES.includes(type as CanonicalType)) fail('type', `The type must be one of: ${CANONICAL_TYPES.join(', ')}.`);

  const status = fm['status'];
  if (status === undefined || status === null || status === '') fail('status', 'The status is required.');
  else if (!CANONICAL_STATUSES.includes(status as CanonicalStatus)) fail('status', `The status must be one of: ${CANONICAL_STATUSES.join(', ')}.`);

  const priority = fm['retrieval_priority'] ?? 50;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 100) fail('retrieval_priority', 'The retrieval priority must be an integer from 0 to 100.');

  const id = fm['id'];
  if (id !== undefined && id !== null && (typeof id !== 'string' && typeof id !== 'number')) fail('id', 'The id must be a string or a number.');

  const title = fm['title'];
  if (title !== undefined && title !== null && (typeof title !== 'string' || title.trim().length > 255)) fail('title', 'The title must be text of at most 255 characters.');

  const slugList = (field: string) => {
    const value = fm[field] ?? [];
    if (!Array.isArray(value)) return fail(field, `The ${field} field must be a list of slugs.`), [];
    return value.flatMap((item) => {
      const s = typeof item === 'string' ? (WIKILINK.exec(item.trim())?.[1] ?? item).trim() : null;
      if (s === null || !SLUG.test(s)) return fail(field, `Every ${field} entry must be a slug or [[slug]].`), [];
      return [s];
    });
  };
  const textList = (field: string) => {
    const value = fm[field] ?? [];
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.trim() !== '')) return fail(field, `The ${field} field must be a list of text values.`), [];
    return (value as string[]).map((v) => v.trim());
  };
  const related = slugList('related');
  const supersedes = slugList('supersedes');
  const supersededBy = slugList('superseded_by');
  const tags = textList('tags');
  const owners = textList('owners');
  const summary = fm['summary'];
  if (summary !== undefined && summary !== null && typeof summary !== 'string') fail('summary', 'The summary must be text.');

  if (Object.keys(errors).length) return invalid(errors);
  const body = markdown.slice(block[0].length);
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body)?.[1]?.trim() ?? null;
  return {
    valid: true,
    parsed: {
      doc_id: id === undefined || id === null ? null : String(id),
      slug: slug as string,
      type: type as CanonicalType,
      status: status as CanonicalStatus,
      title_line: typeof title === 'string' && title.trim() ? title.trim() : heading,
      retrieval_priority: priority as number,
      related_slugs: related,
      supersedes_slugs: supersedes,
      superseded_by_slugs: supersededBy,
      tags,
      owners,
      summary: typeof summary === 'string' ? summary : null,
    },
  };
}

const invalid = (errors: Record<string, string[]>): DraftCheck => ({ valid: false, reason: 'invalid_frontmatter', errors });
