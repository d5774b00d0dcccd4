import { normalizeText, NormalizationSettings } from './normalize';

export interface Span {
  start: number;
  end: number;
}

const PLAIN_ASCII = /^[\x20-\x7e\t\n\r]$/;

/**
 * Maps a span of the normalized prompt back to the (well-formed) original by normalizing the
 * original one code point at a time up to the end of the span. When that does not reproduce the
 * normalized text (NFKC composed characters across a boundary, or the span lies in decoded base64),
 * there is no faithful original span and the result is null. Runs only when a rule matched.
 */
export function originalSpan(
  clean: string,
  normalizedBase: string,
  s: NormalizationSettings,
  span: Span,
): Span | null {
  if (span.end > normalizedBase.length || span.start >= span.end) return null;
  if (!s.enabled) return span;
  const starts: number[] = [];
  const ends: number[] = [];
  let rebuilt = '';
  let index = 0;
  for (const cp of clean) {
    // Plain ASCII only changes case; everything else takes the full pipeline.
    const piece = PLAIN_ASCII.test(cp) ? (s.casefold ? cp.toLowerCase() : cp) : normalizeText(cp, s);
    for (let k = 0; k < piece.length; k++) {
      starts.push(index);
      ends.push(index + cp.length);
    }
    rebuilt += piece;
    index += cp.length;
    // One code point past the span, so a character composing with the last one is caught.
    if (rebuilt.length > span.end) break;
  }
  if (!normalizedBase.startsWith(rebuilt) || rebuilt.length < span.end) return null;
  return { start: starts[span.start], end: ends[span.end - 1] };
}

/** A UTF-16 span of `text` as UTF-8 byte offsets (the audit's unit). */
export function utf8Span(text: string, span: Span): Span {
  const start = Buffer.byteLength(text.slice(0, span.start), 'utf8');
  return { start, end: start + Buffer.byteLength(text.slice(span.start, span.end), 'utf8') };
}
