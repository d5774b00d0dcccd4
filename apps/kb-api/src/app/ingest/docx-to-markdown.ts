import { Converted, htmlToMarkdown, markdownTitle } from './convert';
import { extractInThread, ExtractionLimits } from './extraction-thread';

/**
 * DOCX to markdown: mammoth maps Word's paragraph styles to HTML (Heading 1–6 to h1–h6, lists,
 * tables) and the HTML path keeps those headings as ATX headings for the chunker. The title is
 * the first level-1 heading.
 */
export async function docxToMarkdown(data: Buffer, limits?: ExtractionLimits): Promise<Converted> {
  const { html } = await extractInThread('docx', data, limits);
  const { markdown } = htmlToMarkdown(html);
  return { markdown, title: markdownTitle(markdown) };
}
