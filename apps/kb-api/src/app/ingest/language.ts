/** The Postgres text-search configurations documents are indexed under. */
export const TEXT_SEARCH_CONFIGS = ['english', 'italian', 'german', 'french', 'spanish', 'simple'] as const;
export type TextSearchConfig = (typeof TEXT_SEARCH_CONFIGS)[number];

const STOPWORDS: Record<Exclude<TextSearchConfig, 'simple'>, string[]> = {
  english: ['the', 'and', 'is', 'are', 'of', 'to', 'in', 'that', 'it', 'for', 'with', 'this', 'how', 'what', 'you', 'be', 'on', 'can'],
  italian: ['il', 'la', 'che', 'di', 'e', 'per', 'un', 'una', 'non', 'sono', 'come', 'del', 'della', 'dei', 'delle', 'dal', 'dalla', 'nel', 'nella', 'alla', 'con', 'gli', 'le', 'è', 'si', 'ci', 'entro'],
  german: ['der', 'die', 'und', 'das', 'ist', 'nicht', 'mit', 'ein', 'eine', 'zu', 'den', 'dem', 'des', 'wie', 'auf', 'für', 'ich', 'sie', 'es', 'im', 'wird', 'werden', 'von'],
  french: ['le', 'la', 'les', 'et', 'des', 'est', 'une', 'un', 'pour', 'que', 'dans', 'pas', 'avec', 'comment', 'du', 'sur', 'il', 'au', 'aux', 'sont', 'être', 'ce', 'qui'],
  spanish: ['el', 'la', 'los', 'las', 'y', 'es', 'que', 'una', 'un', 'para', 'con', 'por', 'cómo', 'del', 'se', 'no', 'al', 'son', 'está', 'en', 'lo'],
};

/**
 * The likeliest language by stopword counts (cheap and good enough to pick a stemmer); `simple`
 * (no stemming) when nothing stands out, e.g. for short or code-heavy text.
 */
export function detectLanguage(text: string): TextSearchConfig {
  const words = text.toLowerCase().match(/\p{L}+/gu)?.slice(0, 4000) ?? [];
  if (words.length === 0) return 'simple';
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  let best: TextSearchConfig = 'simple';
  let bestScore = 0;
  for (const [lang, stops] of Object.entries(STOPWORDS) as Array<[TextSearchConfig, string[]]>) {
    const score = stops.reduce((n, s) => n + (counts.get(s) ?? 0), 0);
    if (score > bestScore) [best, bestScore] = [lang, score];
  }
  return bestScore >= Math.min(3, Math.ceil(words.length / 12)) ? best : 'simple';
}
