/** Models often wrap JSON in a Markdown code fence even when asked not to. */
const FENCED = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i;

/** The reply text as JSON, or null when it is not JSON (the caller treats that as "no findings"). */
export function parseJsonReply(text: string): unknown {
  const trimmed = text.trim();
  const body = FENCED.exec(trimmed)?.[1] ?? trimmed;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** A rough token count (about four characters a token) for servers that report no usage. */
export function estimateTokens(...texts: string[]): number {
  return Math.ceil(texts.reduce((sum, t) => sum + t.length, 0) / 4);
}
