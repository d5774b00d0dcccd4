import type { McpCaller } from './mcp-caller';

/**
 * Whom a request's credential names, known before the credential is fully judged: a refused tool
 * call is audited in their tenant (only an unknown credential leaves no tenant to audit in).
 * Kept beside the request, not on it, so nothing downstream mistakes it for an admitted caller.
 */
const claimants = new WeakMap<object, McpCaller>();

export function noteClaimant(req: object, caller: McpCaller): void {
  claimants.set(req, caller);
}

export function claimantOf(req: object): McpCaller | undefined {
  return claimants.get(req);
}
