import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JWT_VERIFIER, JwtVerifier } from '@platform/auth';
import { parseCookie } from 'cookie';
import { requestIdOf, routePattern } from '../admin-insight/logs/http-facts';
import { KbError, KbMessage } from '../errors/kb-errors';
import { CAPABILITIES, Capability, PLATFORM_ADMIN, TOKEN_ABILITIES } from '../identity/rbac';
import { Authorization, UsersRepository } from '../identity/users.repository';
import { CrossTenantAuditRepository } from '../tenancy/cross-tenant-audit.repository';
import { TENANT_ID } from '../tenancy/tenants.repository';
import { KB_ABILITY, KB_CAN, KB_GLOBAL, KB_PERMISSIONS, KB_PUBLIC, KB_ROLES, KB_TOKEN_ONLY, KB_USER_ONLY } from './gates';
import { KbPrincipal, KbRequest } from './kb-principal';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { SessionsService } from './sessions.service';
import { TenantStatusReader } from './tenant-status.reader';
import { TokenIdentities } from './token-identities';

export const SESSION_COOKIE = 'kb_session';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

type Authenticated = Omit<KbPrincipal, 'tenantId' | 'roles' | 'permissions' | 'platformAdmin'> & {
  csrfOk?: boolean;
  /** A personal access token's authorization in its own tenant, resolved with the token. */
  homeAuthorization?: Authorization;
};

/**
 * `auth:guard` and the gates after it, in order: authenticate (bearer personal access token, iam
 * token, or session cookie with CSRF on unsafe methods), resolve and authorize the tenant, then
 * the route's role, capability, permission and token-ability gates. Guest → 401; a failed gate → 403.
 */
@Injectable()
export class KbAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly tokens: PersonalAccessTokensService,
    private readonly users: UsersRepository,
    @Inject(JWT_VERIFIER) private readonly iam: JwtVerifier,
    private readonly tokenIdentities: TokenIdentities,
    private readonly tenantStatus: TenantStatusReader,
    private readonly crossTenantAudit: CrossTenantAuditRepository,
  ) {}

  private meta<T>(key: string, ctx: ExecutionContext): T | undefined {
    return this.reflector.getAllAndOverride<T>(key, [ctx.getHandler(), ctx.getClass()]);
  }

  canActivate(ctx: ExecutionContext): Promise<boolean> {
    return this.check(ctx, false);
  }

  /**
   * The same checks for the lean /api/auth/me path: a personal access token's identity (token,
   * user, authorization in the token's tenant) may come from TokenIdentityCache. Every change made
   * through kb-api applies at once either way; a change written to the database behind kb-api's
   * back shows here within TOKEN_IDENTITY_TTL_MS. Tenant status is read fresh in both.
   */
  canActivateWithCachedTokens(ctx: ExecutionContext): Promise<boolean> {
    return this.check(ctx, true);
  }

  private async check(ctx: ExecutionContext, cachedTokens: boolean): Promise<boolean> {
    if (this.meta<boolean>(KB_PUBLIC, ctx)) return true;
    const req = ctx.switchToHttp().getRequest<KbRequest>();
    // The platform's probes and metrics (shared controllers) answer the orchestrator, not users.
    if (req.path === '/metrics' || req.path.startsWith('/health/')) return true;
    const who = await this.authenticate(req, cachedTokens);
    if (!who) throw new KbMessage(401, 'Unauthenticated.');

    if (this.meta<boolean>(KB_TOKEN_ONLY, ctx) && who.kind !== 'token') throw new KbMessage(403, 'This action needs a personal access token.');
    if (this.meta<boolean>(KB_USER_ONLY, ctx) && !who.userId) throw new KbMessage(403, 'This action needs a user.');
    if (who.kind === 'session' && !SAFE_METHODS.has(req.method) && !who.csrfOk) {
      throw new KbError(403, 'csrf_token_mismatch', 'CSRF token mismatch: send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.');
    }

    const global = this.meta<boolean>(KB_GLOBAL, ctx) === true;
    const { tenantId, asPlatformAdmin } = global ? { tenantId: who.homeTenantId, asPlatformAdmin: false } : await this.activeTenant(req, who);
    // Recorded on admission, before the route's own gates: the platform audit shows every request
    // made in a foreign tenant, including those the route then refuses. A failed write fails the request.
    if (asPlatformAdmin) await this.recordCrossing(req, who, tenantId);
    const auth = !who.userId
      ? { roles: [], permissions: [], platformAdmin: false, tenants: [] }
      : who.homeAuthorization && tenantId === who.homeTenantId
        ? who.homeAuthorization
        : await this.users.authorization(who.userId, tenantId);
    const principal: KbPrincipal = { ...who, tenantId, roles: auth.roles, permissions: auth.permissions, platformAdmin: auth.platformAdmin };
    delete (principal as Authenticated).csrfOk;
    delete (principal as Authenticated).homeAuthorization;
    req.kbPrincipal = principal;

    const roles = this.meta<string[]>(KB_ROLES, ctx);
    if (roles && !roles.some((r) => principal.roles.includes(r as never))) throw new KbMessage(403, 'This action is unauthorized.');
    const can = this.meta<Capability | 'platform.admin'>(KB_CAN, ctx);
    if (can) {
      const allowed = can === PLATFORM_ADMIN ? principal.platformAdmin : (CAPABILITIES[can] as readonly string[]).some((r) => principal.roles.includes(r as never));
      if (!allowed) throw new KbMessage(403, 'This action is unauthorized.');
    }
    const permissions = this.meta<string[]>(KB_PERMISSIONS, ctx);
    if (permissions && !permissions.every((p) => principal.permissions.includes(p))) throw new KbMessage(403, 'This action is unauthorized.');
    const ability = this.meta<string>(KB_ABILITY, ctx);
    if (ability && principal.abilities !== null && !principal.abilities.includes(ability)) {
      throw new KbError(403, 'token_ability_forbidden', `This token is not scoped for ${ability}.`);
    }
    return true;
  }

  private async authenticate(req: KbRequest, cachedTokens: boolean): Promise<Authenticated | null> {
    const header = req.headers.authorization;
    if (typeof header === 'string' && header.length > 0) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) return null;
      const credential = match[1];
      if (credential.startsWith('kbp_')) return cachedTokens ? this.fromCachedToken(credential) : this.fromToken(credential);
      if (JWT_SHAPE.test(credential)) return this.fromIam(credential);
      return null;
    }
    const cookies = parseCookie(req.headers.cookie ?? '');
    const sessionToken = cookies[SESSION_COOKIE];
    if (!sessionToken) return null;
    const session = await this.sessions.resolve(sessionToken);
    if (!session) return null;
    const user = await this.users.findById(session.user_id);
    if (!user?.active) return null;
    const presented = req.headers[CSRF_HEADER];
    return {
      kind: 'session',
      userId: user.id,
      homeTenantId: user.tenant_id,
      abilities: null,
      sessionId: session.id,
      twoFactorPassed: session.two_factor_passed,
      csrfOk: this.sessions.csrfMatches(session, typeof presented === 'string' ? presented : undefined),
    };
  }

  private async fromToken(token: string): Promise<Authenticated | null> {
    const row = await this.tokens.resolve(token);
    if (!row) return null;
    const user = await this.users.findById(row.user_id);
    if (!user?.active) return null;
    this.tokens.markUsed(row.id);
    return { kind: 'token', userId: user.id, homeTenantId: row.tenant_id, abilities: row.abilities, tokenId: row.id };
  }

  private async fromCachedToken(token: string): Promise<Authenticated | null> {
    const identity = await this.tokenIdentities.resolve(token);
    if (!identity) return null;
    const { token: row, user, authorization } = identity;
    this.tokens.markUsed(row.id);
    return { kind: 'token', userId: user.id, homeTenantId: row.tenant_id, abilities: row.abilities, tokenId: row.id, homeAuthorization: authorization };
  }

  /** An iam access token for integrations: its kb scopes become abilities, its tenant claim the home tenant. */
  private async fromIam(jwt: string): Promise<Authenticated | null> {
    try {
      const { payload } = await this.iam.verify(jwt);
      const scopes = typeof payload['scope'] === 'string' ? (payload['scope'] as string).split(' ') : [];
      const tenant = typeof payload['tenant_id'] === 'string' && TENANT_ID.test(payload['tenant_id'] as string) ? (payload['tenant_id'] as string) : 'default';
      return { kind: 'iam', userId: null, homeTenantId: tenant, abilities: scopes.filter((s) => (TOKEN_ABILITIES as readonly string[]).includes(s)) };
    } catch {
      return null;
    }
  }

  /**
   * X-Tenant-Id, else the home tenant. A foreign tenant needs a role or a project membership there
   * (the caller is one of its members), or platform.admin (the platform's operators, audited). No
   * tenant role or permission opens another tenant.
   */
  private async activeTenant(req: KbRequest, who: Authenticated): Promise<{ tenantId: string; asPlatformAdmin: boolean }> {
    const raw = req.headers['x-tenant-id'];
    const requested = typeof raw === 'string' && raw !== '' ? raw : undefined;
    if (requested !== undefined && !TENANT_ID.test(requested)) throw new KbError(400, 'invalid_tenant_id', 'X-Tenant-Id must match ^[a-z0-9_-]{1,50}$.');
    const tenantId = requested ?? who.homeTenantId;
    let asPlatformAdmin = false;
    if (tenantId !== who.homeTenantId) {
      // Read fresh, never from the token identity cache: this decides entry into another tenant.
      const home = who.userId ? await this.users.authorization(who.userId, who.homeTenantId) : null;
      const member = home !== null && home.tenants.includes(tenantId);
      asPlatformAdmin = !member && home !== null && home.platformAdmin;
      if (!member && !asPlatformAdmin) throw new KbError(403, 'tenant_forbidden', 'You may not act in this tenant.');
    }
    // Read for every request (never cached), so a suspension applies at once on every replica.
    const status = await this.tenantStatus.status(tenantId);
    if (!status) throw new KbError(403, 'tenant_forbidden', 'You may not act in this tenant.');
    if (status !== 'active') throw new KbError(403, 'tenant_suspended', 'This tenant is suspended.');
    return { tenantId, asPlatformAdmin };
  }

  private async recordCrossing(req: KbRequest, who: Authenticated, tenantId: string): Promise<void> {
    const user = await this.users.findById(who.userId!);
    await this.crossTenantAudit.record({
      actorUserId: who.userId!,
      actorEmail: user?.email ?? '',
      credential: who.kind === 'session' ? 'session' : 'token',
      homeTenantId: who.homeTenantId,
      targetTenantId: tenantId,
      method: req.method,
      route: routePattern(req),
      path: req.path,
      requestId: requestIdOf(req, req.res!),
    });
  }
}
