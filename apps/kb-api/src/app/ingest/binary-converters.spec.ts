import { buildDocx, buildPdf } from '../../../test/document-files';
import { chunkMarkdown } from './chunker';
import { toMarkdown } from './convert';
import { BINARY_CONVERTERS } from './binary-converters';
import { pdfToMarkdown } from './pdf-to-markdown';

describe('binary document converters', () => {
  it('turns each PDF page with text into its own section, titled from the Info dictionary', async () => {
    const pdf = buildPdf(
      [
        [
          { text: 'Quarterly report', size: 20 },
          { text: 'Revenue grew by twelve percent (mostly services).' },
          { text: '# not a heading' },
        ],
        [],
        [{ text: 'Outlook', size: 16 }, { text: 'We expect steady growth.' }],
      ],
      'Finance Q3',
    );
    const converted = await toMarkdown('pdf', pdf, BINARY_CONVERTERS);
    expect(converted.title).toBe('Finance Q3');
    const chunks = chunkMarkdown(converted.markdown);
    expect(chunks.map((c) => c.heading_path)).toEqual(['Page 1', 'Page 3']);
    expect(chunks[0].text).toContain('Revenue grew by twelve percent (mostly services).');
    expect(chunks[0].text).toContain('\\# not a heading');
    expect(chunks[1].text).toContain('We expect steady growth.');
  });

  it('leaves the title to the caller when the PDF has none', async () => {
    const converted = await toMarkdown(
      'pdf',
      buildPdf([[{ text: 'Only text' }]]),
      BINARY_CONVERTERS,
    );
    expect(converted).toEqual({ markdown: '## Page 1\n\nOnly text', title: null });
  });

  it('rejects bytes that are not a PDF', async () => {
    await expect(
      toMarkdown('pdf', Buffer.from('definitely not a pdf'), BINARY_CONVERTERS),
    ).rejects.toThrow();
  });

  it('keeps DOCX headings as markdown headings, so chunks carry heading paths', async () => {
    const docx = buildDocx([
      { heading: 1, text: 'Travel policy' },
      { text: 'Employees book trains for trips under four hours.' },
      { heading: 2, text: 'Expenses & receipts' },
      { text: 'Receipts are uploaded within <30> days.' },
    ]);
    const converted = await toMarkdown('docx', docx, BINARY_CONVERTERS);
    expect(converted.title).toBe('Travel policy');
    const chunks = chunkMarkdown(converted.markdown);
    expect(chunks.map((c) => c.heading_path)).toEqual([
      'Travel policy',
      'Travel policy > Expenses & receipts',
    ]);
    expect(chunks[1].text).toContain('Receipts are uploaded within <30> days.');
  });

  it('rejects a zip that is not a Word document', async () => {
    await expect(
      toMarkdown('docx', Buffer.from('PK\u0003\u0004 broken'), BINARY_CONVERTERS),
    ).rejects.toThrow();
  });

  it('stops a conversion that outlives its deadline', async () => {
    await expect(
      pdfToMarkdown(buildPdf([[{ text: 'Slow' }]]), { timeoutMs: 1, maxHeapMb: 64 }),
    ).rejects.toThrow('pdf conversion did not finish within 1 ms');
  });
});
