import { RetrievedChunk } from '../retrieval/retrieval.service';
import { contentTerms, stemOf } from '../retrieval/query-terms';

/**
 * The `none` provider's answer: the sentences of the best grounded chunks that share the most words
 * with the question, each followed by the number of its citation. No model, no tokens.
 */
export function extractiveAnswer(question: string, chunks: RetrievedChunk[], citationIndex: Map<number, number>): string {
  const stems = contentTerms(question).map(stemOf);
  const candidates: Array<{ sentence: string; score: number; doc: number; order: number }> = [];
  chunks.forEach((chunk, ci) => {
    const sentences = chunk.text
      .replace(/^#{1,6}\s+.*$/gm, '')
      .replace(/```[\s\S]*?```/g, '')
      .split(/(?<=[.!?])\s+|\n{2,}/)
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter((s) => s.length >= 20 && s.length <= 600);
    sentences.forEach((sentence, si) => {
      const lower = sentence.toLowerCase();
      const hits = stems.filter((s) => lower.includes(s)).length;
      if (hits > 0) candidates.push({ sentence, score: hits / stems.length + chunk.score * 0.5 - ci * 0.01, doc: chunk.document_id, order: ci * 1000 + si });
    });
  });
  const picked = candidates.sort((a, b) => b.score - a.score).slice(0, 3).sort((a, b) => a.order - b.order);
  if (picked.length === 0) {
    const best = chunks[0];
    return `${best.text.replace(/\s+/g, ' ').slice(0, 400).trim()} [${citationIndex.get(best.document_id)}]`;
  }
  return picked.map((p) => `${p.sentence} [${citationIndex.get(p.doc)}]`).join(' ');
}
