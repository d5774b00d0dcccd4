import type { Converted } from './convert';
import { extractInThread, ExtractionLimits } from './extraction-thread';

/** A page's text as a markdown section body: a line that would read as a heading or a fence is escaped, so it stays text. */
const asPlainText = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/, '').replace(/^(\s{0,3})(#|```|~~~)/, '$1\\$2'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * PDF to markdown with one `## Page N` section per page that has text: the chunker then keeps a
 * page per chunk (a long page is split further) and citations name the page. The title is the
 * PDF's own Title entry when it has one.
 */
export async function pdfToMarkdown(data: Buffer, limits?: ExtractionLimits): Promise<Converted> {
  const { title, pages } = await extractInThread('pdf', data, limits);
  const markdown = pages
    .map((p) => ({ num: p.num, body: asPlainText(p.text) }))
    .filter((p) => p.body !== '')
    .map((p) => `## Page ${p.num}\n\n${p.body}`)
    .join('\n\n');
  return { markdown, title: title?.trim() || null };
}
