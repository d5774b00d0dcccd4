/**
 * The knowledge base's seeded roles, permissions and capabilities (reference kb §2.10). Roles hold
 * per tenant and carry tenant permissions only; the platform-level permissions are global and held
 * directly, never through a tenant role.
 */
export const ROLES = ['super-admin', 'admin', 'dpo', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'users.manage',
  'roles.manage',
  'permissions.view',
  'kb.read.any',
  'kb.read.all_projects',
  'kb.edit.any',
  'kb.delete.any',
  'kb.promote.any',
  'commands.run',
  'commands.destructive',
  'logs.view',
  'insights.view',
  'admin.access',
  'pii.detokenize',
  'pii.erase',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The global permission of the system-admin surface and of acting in another tenant; a tenant
 * super-admin does not hold it.
 */
export const PLATFORM_ADMIN = 'platform.admin';

/**
 * Permissions that reach beyond one tenant. A tenant's role editing may never grant them, or one
 * tenant's admins could hand their users the run of every tenant. `tenant.cross-access` is the
 * anchor's name for crossing tenants; here that is part of platform.admin, and the name is refused.
 */
export const PLATFORM_PERMISSIONS = [PLATFORM_ADMIN, 'tenant.cross-access'] as const;
export const isPlatformPermission = (v: unknown): boolean =>
  typeof v === 'string' && (PLATFORM_PERMISSIONS as readonly string[]).includes(v);

export const ROLE_GRANTS: Readonly<Record<Role, readonly Permission[]>> = {
  'super-admin': PERMISSIONS,
  admin: ['users.manage', 'kb.read.any', 'kb.read.all_projects', 'kb.edit.any', 'kb.delete.any', 'kb.promote.any', 'commands.run', 'logs.view', 'insights.view', 'admin.access'],
  dpo: ['admin.access', 'logs.view', 'pii.detokenize', 'pii.erase'],
  editor: ['kb.read.any', 'kb.edit.any', 'kb.promote.any', 'commands.run', 'logs.view', 'insights.view'],
  viewer: ['kb.read.any', 'logs.view'],
};

/** Rank for "a user cannot raise their own role": a higher number is more powerful. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 1, editor: 2, dpo: 3, admin: 4, 'super-admin': 5 };

/** The `can:` capabilities of the spec's tables, as the roles that hold them. */
export const CAPABILITIES = {
  manageWidgetKeys: ['super-admin'],
  manageMcpTools: ['super-admin'],
  viewWidgetSessions: ['admin', 'super-admin'],
  viewMcpAudit: ['admin', 'super-admin'],
  manageConnectors: ['admin', 'super-admin'],
  viewTabularReviews: ['viewer', 'admin', 'super-admin'],
  viewWorkflows: ['viewer', 'admin', 'super-admin'],
  viewPiiRedactorAdmin: ['admin', 'super-admin', 'dpo'],
} as const satisfies Record<string, readonly Role[]>;
export type Capability = keyof typeof CAPABILITIES;

/** Gate G1 of the spec: `role:admin|super-admin`. */
export const G1_ROLES: readonly Role[] = ['admin', 'super-admin'];

/** Abilities a personal access token can carry; issued tokens get exactly these. */
export const TOKEN_ABILITIES = ['kb:read', 'kb:chat'] as const;
export type TokenAbility = (typeof TOKEN_ABILITIES)[number];

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);
