import sanitizeHtml from 'sanitize-html';

export const MIME_TYPES = {
  markdown: ['text/markdown', 'text/x-markdown'],
  text: ['text/plain'],
  html: ['text/html'],
  pdf: ['application/pdf'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
} as const;

export type SourceType = keyof typeof MIME_TYPES;

export function sourceTypeOf(mimeType: string): SourceType | null {
  const mime = mimeType.toLowerCase().split(';')[0].trim();
  for (const [type, mimes] of Object.entries(MIME_TYPES)) if ((mimes as readonly string[]).includes(mime)) return type as SourceType;
  return null;
}

/** Binary formats arrive base64-encoded in the JSON body. */
export const isBinary = (t: SourceType) => t === 'pdf' || t === 'docx';

export interface Converted {
  markdown: string;
  /** A title found in the content (frontmatter `title`, first H1, HTML <title>), if any. */
  title: string | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** HTML to markdown-ish text: headings kept as ATX headings (for chunking), blocks as paragraphs, everything else as text. */
export function htmlToMarkdown(html: string): Converted {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() || null;
  const marked = html
    .replace(/<(head|title|script|style|noscript|template)[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_m, level: string, inner: string) => `\n\n${'#'.repeat(Number(level))} ${inner.replace(/\s+/g, ' ')}\n\n`)
    .replace(/<li[^>]*>/gi, '\n- ')
    .replace(/<(br|hr)\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|section|article|ul|ol|table|tr|pre|blockquote)>/gi, '\n\n');
  const text = decodeEntities(sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { markdown: text, title: title ? decodeEntities(title) : null };
}

/** The title a markdown document gives itself: frontmatter `title:` or its first H1. */
export function markdownTitle(markdown: string): string | null {
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(markdown)?.[1];
  const fromFrontmatter = fm ? /^title:\s*["']?(.+?)["']?\s*$/m.exec(fm)?.[1] : undefined;
  if (fromFrontmatter) return fromFrontmatter.trim();
  return /^\s{0,3}#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1]?.trim() ?? null;
}

export type BinaryConverter = (data: Buffer) => Promise<Converted>;

/**
 * Any supported source to markdown. PDF and DOCX go through the converters given (parsing
 * libraries loaded only when such a document arrives); text formats are handled here.
 */
export async function toMarkdown(type: SourceType, content: Buffer, binary: Partial<Record<'pdf' | 'docx', BinaryConverter>> = {}): Promise<Converted> {
  switch (type) {
    case 'markdown': {
      const md = content.toString('utf8');
      return { markdown: md, title: markdownTitle(md) };
    }
    case 'text':
      return { markdown: content.toString('utf8'), title: null };
    case 'html':
      return htmlToMarkdown(content.toString('utf8'));
    default: {
      const convert = binary[type];
      if (!convert) throw new Error(`no converter for ${type}`);
      return convert(content);
    }
  }
}
