import { contentTerms } from '../../retrieval/query-terms';

/** Whether a corpus word can name a topic: not a stopword, not a number (the retrieval's own rules). */
export const isTopicWord = (word: string) => {
  const terms = contentTerms(word);
  return terms.length === 1 && terms[0] === word && !/^\d+$/.test(word);
};
