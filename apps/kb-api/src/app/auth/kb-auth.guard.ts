import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { authenticateWith, takeCredential } from '@platform/auth';
import { requestIdOf, routePattern } from '../request-log/http-facts';
import { KbError, KbMessage } from '../errors/kb-errors';
import { CAPABILITIES, Capability, PLATFORM_ADMIN, TOKEN_ABILITIES } from '../identity/rbac';
import { Authorization, UsersRepository } from '../identity/users.repository';
import { CrossTenantAuditRepository } from '../tenancy/cross-tenant-audit.repository';
import { TENANT_ID } from '../tenancy/tenants.repository';
import { KB_ABILITY, KB_CAN, KB_GLOBAL, KB_PERMISSIONS, KB_PUBLIC, KB_ROLES, KB_TOKEN_ONLY, KB_USER_ONLY } from './gates';
import { KbPrincipal, KbRequest } from './kb-principal';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { IamTokenCredential, IamTokenStrategy } from './strategies/iam-token.strategy';
import { PersonalAccessTokenCredential, PersonalAccessTokenStrategy } from './strategies/personal-access-token.strategy';
import { SessionCredential, SessionStrategy } from './strategies/session.strategy';
import { TenantStatusReader } from './tenant-status.reader';

export { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './strategies/session.strategy';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What one of kb-api's strategies accepted. */
type KbCredential = PersonalAccessTokenCredential | IamTokenCredential | SessionCredential;

type Authenticated = Omit<KbPrincipal, 'tenantId' | 'roles' | 'permissions' | 'platformAdmin'> & {
  csrfOk?: boolean;
  /** A personal access token's authorization in its own tenant, resolved with the token. */
  homeAuthorization?: Authorization;
};

/** Where passport leaves the accepted credential until the guard has turned it into `kbPrincipal`. */
const CREDENTIAL_PROPERTY = 'kbCredential';

/**
 * `auth:guard` and the gates after it, in order: authenticate through kb-api's passport strategies
 * (bearer personal access token, iam token, or session cookie with CSRF on unsafe methods), resolve
 * and authorize the tenant, then the route's role, capability, permission and token-ability gates.
 * Guest → 401; a failed gate → 403.
 */
@Injectable()
export class KbAuthGuard extends AuthGuard() {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: PersonalAccessTokensService,
    private readonly users: UsersRepository,
    private readonly tenantStatus: TenantStatusReader,
    private readonly crossTenantAudit: CrossTenantAuditRepository,
    personalAccessTokens: PersonalAccessTokenStrategy,
    iamTokens: IamTokenStrategy,
    sessions: SessionStrategy,
  ) {
    super(authenticateWith(personalAccessTokens, iamTokens, sessions));
  }

  private meta<T>(key: string, ctx: ExecutionContext): T | undefined {
    return this.reflector.getAllAndOverride<T>(key, [ctx.getHandler(), ctx.getClass()]);
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (this.meta<boolean>(KB_PUBLIC, ctx)) return true;
    const req = ctx.switchToHttp().getRequest<KbRequest>();
    // The platform's probes and metrics (shared controllers) answer the orchestrator, not users.
    if (req.path === '/metrics' || req.path.startsWith('/health/')) return true;
    await super.canActivate(ctx);
    const who = this.identify(takeCredential<KbCredential>(req, CREDENTIAL_PROPERTY));

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
    // The gates' working fields (CSRF result, home authorization) stay out of the principal handlers see.
    const { csrfOk: _csrfOk, homeAuthorization: _homeAuthorization, ...identity } = who as Authenticated;
    const principal: KbPrincipal = { ...identity, tenantId, roles: auth.roles, permissions: auth.permissions, platformAdmin: auth.platformAdmin };
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

  override getAuthenticateOptions(): { property: string } {
    return { property: CREDENTIAL_PROPERTY };
  }

  /** No strategy accepted the request: a guest. A strategy's own refusal (an HTTP error) stands. */
  override handleRequest<T = KbCredential>(err: unknown, credential: KbCredential | false): T {
    if (err) throw err;
    if (!credential) throw new KbMessage(401, 'Unauthenticated.');
    return credential as T;
  }

  /** The caller as the gates see it, from whichever credential was accepted. */
  private identify(credential: KbCredential): Authenticated {
    switch (credential.kind) {
      case 'token': {
        const { token, user, authorization } = credential;
        this.tokens.markUsed(token.id);
        return { kind: 'token', userId: user.id, homeTenantId: token.tenant_id, abilities: token.abilities, tokenId: token.id, homeAuthorization: authorization };
      }
      case 'iam': {
        // An iam access token for integrations: its kb scopes become abilities, its tenant claim the home tenant.
        const { claims } = credential;
        const scopes = typeof claims['scope'] === 'string' ? (claims['scope'] as string).split(' ') : [];
        // The platform's services share an audience; the scopes say which service a token is for. One minted for another
        // service (evidence:review, guardrails:admin), or for the MCP server alone (mcp:*, served by its own guard), holds
        // no kb ability and must not reach the REST routes gated on sign-in alone (ingest among them).
        if (!scopes.some((s) => s.startsWith('kb:'))) {
          throw new KbError(403, 'token_ability_forbidden', 'This token carries no knowledge-base scope.');
        }
        const tenant = typeof claims['tenant_id'] === 'string' && TENANT_ID.test(claims['tenant_id'] as string) ? (claims['tenant_id'] as string) : 'default';
        return { kind: 'iam', userId: null, homeTenantId: tenant, abilities: scopes.filter((s) => (TOKEN_ABILITIES as readonly string[]).includes(s)) };
      }
      case 'session': {
        const { session, user, csrfOk } = credential;
        return { kind: 'session', userId: user.id, homeTenantId: user.tenant_id, abilities: null, sessionId: session.id, twoFactorPassed: session.two_factor_passed, csrfOk };
      }
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
