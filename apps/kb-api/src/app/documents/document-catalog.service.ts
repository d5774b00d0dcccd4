import { Injectable } from '@nestjs/common';
import { KbMessage } from '../errors/kb-errors';
import { wikilinksOf } from '../ingest/chunker';
import {
  DocumentCatalogRepository,
  DocumentHit,
  DocumentPreviewRow,
  RelatedRow,
} from './document-catalog.repository';

export const SEARCH_LIMIT = 20;
export const RELATED_LIMIT = 100;
const PREVIEW_CHARS = 200;
const DOCUMENT_ID = /^[1-9][0-9]{0,17}$/;

/** First chunk as one line: whitespace collapsed, at most 200 characters, "…" when cut. */
export function previewOf(text: string | null): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= PREVIEW_CHARS
    ? line
    : `${chars.slice(0, PREVIEW_CHARS).join('').trimEnd()}…`;
}

/** `[[Token Lifetimes]]`, `Token Lifetimes` or `token-lifetimes` → the slug a wikilink resolves to. */
export const slugOfReference = (reference: string): string | undefined =>
  wikilinksOf(`[[${reference.replace(/^\[\[|\]\]$/g, '')}]]`)[0];

const notFound = () => new KbMessage(404, 'Document not found.');

/** Document search, preview, wikilink resolution, graph neighbours and collections, all inside one tenant. */
@Injectable()
export class DocumentCatalogService {
  constructor(private readonly catalog: DocumentCatalogRepository) {}

  async search(
    tenantId: string,
    text: string,
    projectKeys: string[],
  ): Promise<{ data: DocumentHit[] }> {
    return { data: await this.catalog.search(tenantId, text, projectKeys, SEARCH_LIMIT) };
  }

  /** A non-numeric, missing, deleted or other tenant's id are all the same 404. */
  async preview(tenantId: string, documentId: string): Promise<DocumentPreviewRow> {
    if (!DOCUMENT_ID.test(documentId)) throw notFound();
    const row = await this.catalog.preview(tenantId, documentId);
    if (!row) throw notFound();
    return row;
  }

  async resolveWikilink(tenantId: string, projectKey: string, reference: string) {
    const slug = slugOfReference(reference);
    const target =
      slug === undefined ? null : await this.catalog.wikilinkTarget(tenantId, projectKey, slug);
    if (!target) throw new KbMessage(404, 'Wikilink target not found.');
    const { first_chunk, ...document } = target;
    return { ...document, preview: previewOf(first_chunk) };
  }

  async related(
    tenantId: string,
    projectKey: string | undefined,
    references: string[],
  ): Promise<{ related: RelatedRow[]; meta: { count: number } }> {
    const slugs = [
      ...new Set(references.map(slugOfReference).filter((s): s is string => s !== undefined)),
    ];
    const related = slugs.length
      ? await this.catalog.related(tenantId, projectKey, slugs, RELATED_LIMIT)
      : [];
    return { related, meta: { count: related.length } };
  }

  async collections(tenantId: string): Promise<{ data: Array<{ id: number; name: string }> }> {
    return { data: await this.catalog.collections(tenantId) };
  }
}
