import type { BinaryConverter } from './convert';
import { docxToMarkdown } from './docx-to-markdown';
import { pdfToMarkdown } from './pdf-to-markdown';

/** The worker's converters for binary formats; each loads its parsing library on first use. */
export const BINARY_CONVERTERS: Record<'pdf' | 'docx', BinaryConverter> = {
  pdf: pdfToMarkdown,
  docx: docxToMarkdown,
};
