import { classifyUrl } from './url-trust';

export interface MarkdownOptions {
  /** Hosts whose links and images are kept. */
  trustedHosts: readonly string[];
  /** Escape raw HTML tags (off when the HTML step already handled them). */
  escapeRawHtml: boolean;
}

export interface MarkdownResult {
  text: string;
  /** Links, images, definitions, autolinks or raw tags that were neutralized. */
  neutralized: number;
}

interface Segment {
  code: boolean;
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Splits off fenced code blocks (an unclosed fence runs to the end, as renderers do). */
function splitFences(text: string): Segment[] {
  const segments: Segment[] = [];
  const lines = text.split(/(?<=\n)/);
  let fence: string | null = null;
  let current: Segment = { code: false, text: '' };
  for (const line of lines) {
    const opener = FENCE.exec(line)?.[1];
    if (fence === null && opener) {
      segments.push(current);
      current = { code: true, text: line };
      fence = opener;
    } else if (fence !== null && opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) {
      current.text += line;
      segments.push(current);
      current = { code: false, text: '' };
      fence = null;
    } else {
      current.text += line;
    }
  }
  segments.push(current);
  return segments.filter((s) => s.text !== '');
}

/** Splits off inline code spans: a backtick run closed by the next run of the same length. */
function splitInlineCode(text: string): Segment[] {
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ at: m.index!, length: m[0].length }));
  // For each run, the index of the next run of the same length (or -1).
  const nextSameLength = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    nextSameLength[i] = lastOfLength.get(runs[i].length) ?? -1;
    lastOfLength.set(runs[i].length, i);
  }
  const segments: Segment[] = [];
  let at = 0;
  let i = 0;
  while (i < runs.length) {
    const closer = nextSameLength[i];
    if (closer < 0) {
      i++;
      continue;
    }
    const end = runs[closer].at + runs[closer].length;
    segments.push({ code: false, text: text.slice(at, runs[i].at) }, { code: true, text: text.slice(runs[i].at, end) });
    at = end;
    i = closer + 1;
  }
  segments.push({ code: false, text: text.slice(at) });
  return segments.filter((s) => s.text !== '');
}

// Bounded everywhere: this runs on untrusted output in the caller's thread. Link text allows one
// level of nested brackets; the destination allows one level of balanced parentheses.
const LINK_TEXT = String.raw`((?:[^\[\]\n]|\[[^\[\]\n]{0,200}\]){0,500})`;
const DESTINATION = String.raw`(<[^<>\n]{0,2000}>|[^\s()<>]{0,2000}(?:\([^\s()]{0,200}\)[^\s()<>]{0,2000})?)`;
const TITLE = String.raw`(?:[ \t]{1,8}(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'|\([^()\n]{0,300}\)))?`;
const INLINE = new RegExp(String.raw`(!?)\[${LINK_TEXT}\]\([ \t]{0,8}${DESTINATION}${TITLE}[ \t]{0,8}\)`, 'g');
const DEFINITION = /^ {0,3}\[([^\]\n]{1,200})\]:[ \t]{0,8}<?([^\s<>]{1,2000})>?[^\n]{0,500}$/gm;
const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]{1,2000})>/gi;
const LEFTOVER_LINK = /\]\(/g;
// A tag name followed by space, `/` or `>` (so `<https://…>` autolinks are not tags), or `</`, `<!`, `<?`.
const RAW_TAG = /<(?=[A-Za-z][A-Za-z0-9-]{0,30}[\s/>]|\/[A-Za-z]|[!?])/g;
const DESTINATION_AT = /[ \t]{0,8}(<[^<>\n]{0,300}>|[^\s)]{0,300})/y;

const unwrap = (destination: string) => destination.replace(/^<|>$/g, '');

/** Whether the `]` at `close` ends an image label: the nearest `[` before it (within 500) follows `!`. */
function isImageLabel(text: string, close: number): boolean {
  for (let i = close - 1; i >= Math.max(0, close - 500); i--) {
    if (text[i] === '[') return text[i - 1] === '!';
    if (text[i] === '\n') return false;
  }
  return false;
}

/**
 * A character every neutralization needs: a link, image or definition has `[`, a leftover link `](`,
 * an autolink or a raw tag `<`. Text without one comes out of the full pass unchanged (the code
 * segments are put back together as they were), so most titles and snippets skip it.
 */
export const MARKUP = /[[\]<]/;

/**
 * Neutralizes markdown in model output outside code: images from anywhere but trusted hosts (or the
 * page's own origin) become their alt text (a remote image is fetched without a click and can carry
 * data out); links to
 * untrusted hosts or dangerous schemes keep only their text; such reference definitions and
 * autolinks are removed or turned into code; raw HTML tags are escaped when asked. Any `](` left
 * (deeper nesting than handled) is escaped so it cannot form a link.
 */
export function neutralizeMarkdown(text: string, options: MarkdownOptions): MarkdownResult {
  return MARKUP.test(text) ? neutralizeMarkdownInFull(text, options) : { text, neutralized: 0 };
}

/** The full pass (what `neutralizeMarkdown` runs when MARKUP occurs). */
export function neutralizeMarkdownInFull(text: string, options: MarkdownOptions): MarkdownResult {
  let neutralized = 0;
  const safe = (address: string, kind: 'link' | 'image') => {
    const verdict = classifyUrl(unwrap(address), options.trustedHosts, kind);
    return verdict === 'trusted' || verdict === 'relative';
  };
  const prose = (chunk: string): string => {
    let out = chunk.replace(INLINE, (whole, bang: string, label: string, destination: string) => {
      if (safe(destination, bang ? 'image' : 'link')) return whole;
      neutralized++;
      return bang ? `[image: ${label}]` : label;
    });
    out = out.replace(DEFINITION, (whole, _label: string, destination: string) => {
      if (safe(destination, 'link')) return whole;
      neutralized++;
      return '';
    });
    out = out.replace(AUTOLINK, (whole, address: string) => {
      if (safe(address, 'link')) return whole;
      neutralized++;
      return `\`${address}\``;
    });
    out = out.replace(LEFTOVER_LINK, (whole, offset: number, all: string) => {
      DESTINATION_AT.lastIndex = offset + 2;
      const destination = DESTINATION_AT.exec(all)?.[1] ?? '';
      if (safe(destination, isImageLabel(all, offset) ? 'image' : 'link')) return whole;
      neutralized++;
      return ']\\(';
    });
    if (options.escapeRawHtml) {
      out = out.replace(RAW_TAG, () => {
        neutralized++;
        return '&lt;';
      });
    }
    return out;
  };
  const result = splitFences(text)
    .flatMap((block) => (block.code ? [block] : splitInlineCode(block.text)))
    .map((segment) => (segment.code ? segment.text : prose(segment.text)))
    .join('');
  return { text: result, neutralized };
}

/** Whitespace runs, line and paragraph separators, and C0/C1 control characters. */
// eslint-disable-next-line no-control-regex
const BREAKS = /[\s\u0000-\u001f\u007f-\u009f]+/gu;
/** Characters that start inline markup (code, emphasis, links, wikilinks, HTML, entities, tables, headings) anywhere. */
const INLINE_MARKUP = /[\\`*_~[\]<>&|#]/g;
/**
 * What makes GFM's autolink extension link bare text: a scheme's `://` and a `www.` host (after any
 * character but a letter or digit, `_` included: GFM reads the raw source there). Escaping
 * the colon or the dot (a backslash escape renders as the character) leaves nothing for it to match.
 */
const AUTOLINK_START = /:(?=\/\/)|(?<![a-z0-9])www\./gi;
/** A block marker at the start of a line: list bullets, an ordered-list number, a setext underline. */
const BLOCK_START = /^([-+=]|\d{1,9}[.)])/;

/**
 * Untrusted text (a title, a heading, a path) made safe to put into generated markdown as one
 * literal run: line breaks and controls fold into single spaces (it cannot start a new line or
 * section), and every markdown- or HTML-significant character is backslash-escaped (a renderer
 * shows it as typed: no link (an autolink of a bare URL included), image, raw tag, entity, emphasis,
 * list or heading can come of it).
 * Unlike `neutralizeMarkdown`, which keeps safe formatting in model output, nothing here is markup.
 */
export function markdownLiteral(text: string): string {
  const line = text.replace(BREAKS, ' ').trim().replace(INLINE_MARKUP, '\\$&').replace(AUTOLINK_START, (m) => `${m.slice(0, -1)}\\${m.slice(-1)}`);
  return line.replace(BLOCK_START, (m) => `${m.slice(0, -1)}\\${m.slice(-1)}`);
}
