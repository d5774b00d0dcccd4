import { EvidenceError, FieldProblem, parseReviewRequest, ReviewRequest } from '@platform/evidence-engine';

/** How many duplicated ids one problem names; the rest are counted, so a refusal stays short. */
export const DUPLICATE_IDS_NAMED = 20;

/**
 * An untrusted review request from any adapter (the HTTP body, a CLI line, the MCP assess tool's
 * arguments): the engine's validation (parseReviewRequest), then this service's rule that claim ids
 * and source ids are each unique within the request. The engine, like the original (reference
 * §1.1), takes duplicates silently: the last source with an id is the one its claims are scored
 * against (a claim citing a peer-reviewed `s1` was judged by a later blog `s1`), and claims sharing
 * an id fold into one verdict. The spec gives ids no other meaning, so a request naming two things
 * alike is ambiguous and refused: 422 validation_error naming the duplicated ids, before any
 * review or write.
 */
export function parseReviewInput(input: unknown): ReviewRequest {
  const request = parseReviewRequest(input);
  // The path the client sent: the artifact's fields at the top level, or inside `artifact`.
  const at = (input as Record<string, unknown>)['artifact'] === undefined ? '' : 'artifact.';
  const problems = [
    duplicates('claim', `${at}claims`, request.artifact.claims),
    duplicates('source', `${at}sources`, request.artifact.sources),
  ].filter((p): p is FieldProblem => p !== undefined);
  if (problems.length > 0) throw EvidenceError.validation(problems);
  return request;
}

/** The ids given to more than one item, in the order each first appears, as one problem (or none). */
function duplicates(kind: string, path: string, items: ReadonlyArray<{ id: string }>): FieldProblem | undefined {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { id } of items) (seen.has(id) ? repeated : seen).add(id);
  if (repeated.size === 0) return undefined;
  const named = [...repeated].slice(0, DUPLICATE_IDS_NAMED).map((id) => JSON.stringify(id));
  const more = repeated.size - named.length;
  return { path, message: `Expected unique ${kind} ids at [${path}]; given more than once: ${named.join(', ')}${more > 0 ? ` (and ${more} more)` : ''}.` };
}
