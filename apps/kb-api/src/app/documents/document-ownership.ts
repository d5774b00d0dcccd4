import { KbError } from '../errors/kb-errors';
import type { KbPrincipal } from '../auth/kb-principal';
import type { DocumentOwner } from './document-owners.repository';

/**
 * Who changes documents: the user (null for a service token) and whether they hold the `.any`
 * permission of the change (kb.edit.any to overwrite, kb.delete.any to delete). Without it a caller
 * changes only documents they ingested themselves; a document nobody owns (seeded, promoted,
 * synced by a connector) needs the permission.
 */
export interface DocumentActor {
  userId: string | null;
  any: boolean;
}

export const documentActor = (p: KbPrincipal, permission: 'kb.edit.any' | 'kb.delete.any'): DocumentActor => ({
  userId: p.userId,
  any: p.permissions.includes(permission),
});

/** Work done by the platform itself (connector sync, demo seeding): not limited by ownership. */
export const SYSTEM_ACTOR: DocumentActor = { userId: null, any: true };

export const ownedBy = (actor: DocumentActor, owner: DocumentOwner) =>
  actor.any || (actor.userId !== null && owner.created_by === actor.userId);

/** 403 naming the documents the actor may not change; the whole batch is refused before any write. */
export function refuseForeign(owners: DocumentOwner[], actor: DocumentActor, verb: 'overwrite' | 'delete'): void {
  const foreign = owners.filter((o) => !ownedBy(actor, o));
  if (foreign.length === 0) return;
  const permission = verb === 'overwrite' ? 'kb.edit.any' : 'kb.delete.any';
  const names = foreign.map((o) => `${o.project_key}/${o.source_path}`).join(', ');
  throw new KbError(403, 'document_forbidden', `You may ${verb} only documents you ingested (${permission} is needed for: ${names}).`);
}
