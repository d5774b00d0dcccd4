import { SetMetadata } from '@nestjs/common';
import type { Capability, Role, TokenAbility } from '../identity/rbac';

export const KB_PUBLIC = 'kb:public';
export const KB_GLOBAL = 'kb:global';
export const KB_ROLES = 'kb:roles';
export const KB_CAN = 'kb:can';
export const KB_PERMISSIONS = 'kb:permissions';
export const KB_ABILITY = 'kb:ability';
export const KB_TOKEN_ONLY = 'kb:token-only';
export const KB_USER_ONLY = 'kb:user-only';

/** No authentication (login, token issue, password reset). */
export const Public = () => SetMetadata(KB_PUBLIC, true);
/** Global route: no active tenant is resolved (system-admin surface). */
export const GlobalRoute = () => SetMetadata(KB_GLOBAL, true);
/** `role:a|b`: any of the roles in the active tenant. */
export const RequireRole = (...roles: Role[]) => SetMetadata(KB_ROLES, roles);
/** `can:<capability>`; `can:platform.admin` needs the global permission itself. */
export const Can = (capability: Capability | 'platform.admin') => SetMetadata(KB_CAN, capability);
/** Every listed permission in the active tenant. */
export const RequirePermission = (...permissions: string[]) => SetMetadata(KB_PERMISSIONS, permissions);
/** `token.ability:<ability>`: constrains bearer tokens only; cookie sessions pass. */
export const TokenAbilityGate = (ability: TokenAbility) => SetMetadata(KB_ABILITY, ability);
/** Personal-access-token callers only (outside the session/CSRF stack). */
export const PersonalAccessTokenOnly = () => SetMetadata(KB_TOKEN_ONLY, true);
/** A user must be behind the call (not an iam service token). */
export const UserOnly = () => SetMetadata(KB_USER_ONLY, true);
