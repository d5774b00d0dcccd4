import type { Role } from '../identity/rbac';

/** Who is calling, as kb-api's auth guard established it. */
export interface KbPrincipal {
  kind: 'session' | 'token' | 'iam';
  /** The user (absent for an iam service token without a user). */
  userId: string | null;
  /** The user's home tenant, or the iam token's tenant claim. */
  homeTenantId: string;
  /** The tenant this request acts in (X-Tenant-Id, else the home tenant). */
  tenantId: string;
  roles: Role[];
  permissions: string[];
  platformAdmin: boolean;
  /** Bearer abilities (personal access token abilities or iam scopes); null for cookie sessions. */
  abilities: string[] | null;
  sessionId?: string;
  tokenId?: string;
  /** Whether this session passed the second factor (sessions only). */
  twoFactorPassed?: boolean;
}

export type KbRequest = import('express').Request & { kbPrincipal?: KbPrincipal };
