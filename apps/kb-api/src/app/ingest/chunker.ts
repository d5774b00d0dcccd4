/** One indexed piece of a document. */
export interface Chunk {
  ord: number;
  /** Heading stack joined by " > "; null for text before any heading or without headings. */
  heading_path: string | null;
  text: string;
  wikilinks: string[];
}

export interface ChunkerOptions {
  /** Upper bound per chunk in estimated tokens (characters / 4). */
  maxTokens?: number;
  /** Tokens repeated at the start of the next piece when a long section is split. */
  overlapTokens?: number;
}

const WIKILINK = /\[\[([^\][|#\n]{1,200})(?:[|#][^\]\n]*)?\]\]/g;

/** `[[Some Page|label]]` → `some-page`, in first-seen order. */
export function wikilinksOf(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(WIKILINK)) {
    const slug = m[1].trim().toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    if (slug) seen.add(slug);
  }
  return [...seen];
}

/** The YAML frontmatter block (without its fences) and the body after it. */
export function splitFrontmatter(markdown: string): { frontmatter: string | null; body: string } {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  return m ? { frontmatter: m[1], body: markdown.slice(m[0].length) } : { frontmatter: null, body: markdown };
}

/**
 * Splits markdown on ATX headings (`#`–`######`, never inside ``` or ~~~ fences) into sections
 * with their heading path; a section over the cap is split on paragraphs with a small overlap.
 * Markdown without headings is split on blank lines into capped pieces.
 */
export function chunkMarkdown(markdown: string, options: ChunkerOptions = {}): Chunk[] {
  const maxChars = (options.maxTokens ?? 1024) * 4;
  const overlapChars = (options.overlapTokens ?? 64) * 4;
  const { body } = splitFrontmatter(markdown.replace(/\r\n?/g, '\n'));
  const sections: Array<{ path: string | null; lines: string[] }> = [{ path: null, lines: [] }];
  const stack: string[] = [];
  let fence: string | null = null;
  for (const line of body.split('\n')) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = null;
    }
    const heading = fence === null ? /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (heading) {
      const level = heading[1].length;
      stack.length = level - 1;
      stack[level - 1] = heading[2].trim();
      sections.push({ path: stack.filter(Boolean).join(' > '), lines: [line] });
    } else {
      sections[sections.length - 1].lines.push(line);
    }
  }
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const text = section.lines.join('\n').trim();
    if (!text) continue;
    for (const piece of splitLong(text, maxChars, overlapChars)) {
      chunks.push({ ord: chunks.length, heading_path: section.path, text: piece, wikilinks: wikilinksOf(piece) });
    }
  }
  return chunks;
}

/** Paragraph-packed pieces of at most maxChars; a single oversized paragraph is cut on whitespace. */
function splitLong(text: string, maxChars: number, overlapChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const paragraphs = text.split(/\n{2,}/).flatMap((p) => (p.length <= maxChars ? [p] : hardSplit(p, maxChars)));
  const pieces: string[] = [];
  let current = '';
  for (const p of paragraphs) {
    if (current && current.length + 2 + p.length > maxChars) {
      pieces.push(current);
      const tail = current.slice(-overlapChars);
      const cut = tail.indexOf(' ');
      current = (cut >= 0 ? tail.slice(cut + 1) : tail) + '\n\n' + p;
      if (current.length > maxChars) current = p;
    } else {
      current = current ? `${current}\n\n${p}` : p;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

function hardSplit(text: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    let cut = rest.lastIndexOf(' ', maxChars);
    if (cut < maxChars / 2) cut = maxChars;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}
