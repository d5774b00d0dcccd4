/** Words that carry no topic, in the languages the knowledge base indexes. */
const STOPWORDS = new Set(
  (
    'a an and are as at be by can could do does for from had has have how i if in into is it its me my no not of on or our should so that the their them then there these they this to was we were what when where which who why will with would you your ' +
    // The rest of Postgres' English stopwords: to_tsquery drops them, so they would never match an English chunk.
    'about above after again against all am any because been before being below between both but did doing down during each few further having he her here hers herself him himself his itself just more most myself nor now off once only other ours ourselves out over own same she some such than theirs themselves those through too under until up very while whom yours yourself yourselves ' +
    'il lo la i gli le un una di da in con su per tra fra e o che chi come dove quando perché non è sono del della dei delle al alla ' +
    // "How many / much" in the other languages: asks for a quantity, names no topic (see contentTerms).
    'quanto quanta quanti quante wieviel wieviele combien cuánto cuánta cuántos cuántas ' +
    'der die das ein eine und oder ist sind wie was wo wann warum nicht mit von zu im auf für den dem des ' +
    'le la les un une des et ou est sont comment quoi où quand pourquoi pas avec de du en pour ' +
    'el la los las un una y o es son cómo qué dónde cuándo por qué no con de del en para'
  ).split(' '),
);

/** Distinct lower-cased content words of a text (letters and digits, length > 1, stopwords dropped). */
export function contentTerms(text: string): string[] {
  const out = new Set<string>();
  // "How long / many / much / often …" asks for a quantity; the word names no topic.
  const question = text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\bhow\s+(long|many|much|often|far|soon)\b/g, ' ');
  for (const w of question.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (w.length > 1 && !STOPWORDS.has(w)) out.add(w);
  }
  return [...out];
}

/** A cheap stem for matching inflections across languages: the first 5 characters of longer words. */
export const stemOf = (term: string) => (term.length > 6 ? term.slice(0, 5) : term);

/** A term as one quoted to_tsquery lexeme, so no user text becomes an operator. */
export const quoteLexeme = (term: string) => `'${term.replace(/'/g, "''")}'`;

/** An OR query for to_tsquery over quoted terms. */
export function orTsQuery(terms: string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}

/**
 * A to_tsquery matching the chunks that contain at least `k` of the operands, written so its size
 * grows with operands × k (not with the number of k-subsets): the first operand and k-1 of the
 * rest, or k of the rest.
 */
export function atLeastTsQuery(k: number, operands: string[]): string {
  if (k <= 0) throw new Error('k must be positive');
  if (k > operands.length) throw new Error('k exceeds the operands');
  if (k === operands.length)
    return operands.length === 1 ? operands[0] : `(${operands.join(' & ')})`;
  if (k === 1) return `(${operands.join(' | ')})`;
  const [first, ...rest] = operands;
  return `((${first} & ${atLeastTsQuery(k - 1, rest)}) | ${atLeastTsQuery(k, rest)})`;
}
