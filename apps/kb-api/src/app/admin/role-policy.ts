import { Role, ROLE_RANK } from '../identity/rbac';

export interface RoleHolder {
  userId: string;
  roles: readonly Role[];
  /** Holds the global platform.admin permission (never granted through a tenant role). */
  platformAdmin?: boolean;
  /** The permissions held in the tenant; when given, a role carrying one the holder lacks cannot be granted by them. */
  permissions?: readonly string[];
}

/** The most powerful role's rank; 0 without roles. */
export const rankOf = (roles: readonly Role[]) =>
  roles.reduce((max, r) => Math.max(max, ROLE_RANK[r]), 0);

/**
 * Why `actor` may not manage `target` at all (edit, deactivate, memberships), or null when allowed:
 * an account that outranks the actor is out of reach, otherwise an admin could take over a
 * super-admin by changing its email and resetting the password. A platform administrator outranks
 * every tenant role (it may manage any account, and none but another may manage it): a tenant's
 * super-admin taking over its account would hold every tenant.
 */
export function manageRefusal(actor: RoleHolder, target: RoleHolder): string | null {
  if (actor.userId === target.userId || actor.platformAdmin) return null;
  if (target.platformAdmin) return 'You may not manage a platform administrator.';
  if (rankOf(target.roles) > rankOf(actor.roles)) return 'You may not manage a user whose role outranks yours.';
  return null;
}

/**
 * Why `actor` may not change `target`'s roles from `target.roles` to `next`, or null when allowed.
 * Nobody adds roles to themselves (dropping is fine); nobody grants or removes a role ranked above
 * their own; only a super-admin grants or removes super-admin; and nobody grants a role carrying a
 * permission they lack in the tenant (`grants`: each role's permissions there): an admin without
 * pii.detokenize who could make an account a dpo could sign in as it and detokenize.
 */
export function roleChangeRefusal(
  actor: RoleHolder,
  target: RoleHolder,
  next: readonly Role[],
  grants?: (role: Role) => readonly string[],
): string | null {
  const manage = manageRefusal(actor, target);
  if (manage) return manage;
  const added = next.filter((r) => !target.roles.includes(r));
  const removed = target.roles.filter((r) => !next.includes(r));
  if (actor.userId === target.userId && added.length > 0)
    return 'You may not raise your own roles.';
  const own = rankOf(actor.roles);
  for (const role of [...added, ...removed]) {
    if (role === 'super-admin' && !actor.roles.includes('super-admin'))
      return 'Only a super-admin may grant or remove the super-admin role.';
    if (ROLE_RANK[role] > own)
      return `You may not grant or remove the ${role} role, which ranks above yours.`;
  }
  if (grants && actor.permissions && !actor.platformAdmin) {
    for (const role of added) {
      const lacking = grants(role).filter((permission) => !actor.permissions!.includes(permission));
      if (lacking.length > 0) return `You may not grant the ${role} role: it carries ${lacking.join(', ')}, which you do not hold.`;
    }
  }
  return null;
}
