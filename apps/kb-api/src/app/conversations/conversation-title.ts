export const MAX_GENERATED_TITLE = 80;

/**
 * A title from the conversation's first question: whitespace collapsed and, when long, cut at a
 * word boundary so the list shows whole words.
 */
export function titleFromQuestion(question: string): string {
  const text = question.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_GENERATED_TITLE) return text;
  const cut = text.slice(0, MAX_GENERATED_TITLE - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_GENERATED_TITLE / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
