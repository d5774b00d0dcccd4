import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_AUTHENTICATOR, AccessTokenAuthenticator, AccessTokenRejected, AUTH_RESOURCE, AuthFailure, AuthResource, wwwAuthenticate } from '@platform/auth';
import { parseCookie } from 'cookie';
import type { Response } from 'express';
import { CSRF_HEADER, SESSION_COOKIE } from '../../auth/kb-auth.guard';
import { PersonalAccessTokensService } from '../../auth/personal-access-tokens.service';
import { SessionsService } from '../../auth/sessions.service';
import { TenantStatusReader } from '../../auth/tenant-status.reader';
import { ThrottleService } from '../../auth/throttle.service';
import { KbError, KbMessage } from '../../errors/kb-errors';
import { UsersRepository } from '../../identity/users.repository';
import { IdentityLinksService } from '../../identity-links/identity-links.service';
import { MCP_RATE_POLICY, MCP_SCOPES } from '../mcp-scopes';
import { McpTokensService } from '../tokens/mcp-tokens.service';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { McpAuditService, McpAuditUnavailable } from '../audit/mcp-audit.service';
import { McpCaller, McpRequest } from './mcp-caller';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * `auth:guard` plus `mcp.scope` for /mcp/kb. A tenant MCP token (`mcp_…`) authenticates in its own
 * tenant; an iam access token for this resource (Bearer, or DPoP with its proof) acts as the KB user
 * its identity is linked to, in that user's tenant, with the MCP scopes the token carries; a session
 * or personal access token may initialize and list tools, but every tools/call in the JSON-RPC body
 * needs a token carrying the tool's scope. Answers before the transport so that the errors are
 * HTTP statuses with the reference's codes, not JSON-RPC errors; 401s and scope refusals carry
 * the challenge that points clients to the RFC 9728 metadata.
 */
@Injectable()
export class McpAuthGuard implements CanActivate {
  constructor(
    private readonly mcpTokens: McpTokensService,
    private readonly personalTokens: PersonalAccessTokensService,
    private readonly sessions: SessionsService,
    private readonly users: UsersRepository,
    private readonly tenantStatus: TenantStatusReader,
    private readonly throttle: ThrottleService,
    private readonly catalogue: KbToolCatalogue,
    private readonly audit: McpAuditService,
    private readonly identityLinks: IdentityLinksService,
    @Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly iamTokens: AccessTokenAuthenticator,
    @Inject(AUTH_RESOURCE) private readonly resource: AuthResource,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<McpRequest>();
    // Whoever the credential names, known before it is judged: a refused tool call is audited in
    // their tenant (only an unknown credential leaves no tenant to audit in).
    const known: { caller: McpCaller | null } = { caller: null };
    try {
      const caller = await this.authenticate(req, known);
      if (!caller) throw new KbMessage(401, 'Unauthenticated.');
      const status = await this.tenantStatus.status(caller.tenantId);
      if (!status) throw new KbError(403, 'tenant_forbidden', 'You may not act in this tenant.');
      if (status !== 'active') throw new KbError(403, 'tenant_suspended', 'This tenant is suspended.');
      this.checkToolCalls(req.body, caller);
      await this.countCall(caller, ctx.switchToHttp().getResponse<Response>());
      req.mcpCaller = caller;
      return true;
    } catch (e) {
      this.challenge(e, req, ctx.switchToHttp().getResponse<Response>());
      if (e instanceof KbError && known.caller) {
        // The calls are refused either way; a failed audit write (logged) must not change the answer.
        await this.auditRefusedCalls(req.body, known.caller, e.code).catch((failure: unknown) => {
          if (!(failure instanceof McpAuditUnavailable)) throw failure;
        });
      }
      throw e;
    }
  }

  /**
   * `WWW-Authenticate` on a 401 (RFC 6750 / RFC 9449, with `resource_metadata`, RFC 9728) and on a
   * missing tool scope (`insufficient_scope` naming it), so an MCP client can find where to sign in.
   */
  private challenge(e: unknown, req: McpRequest, res: Response): void {
    if (!(e instanceof HttpException)) return;
    const presented = AccessTokenAuthenticator.presented(req.headers);
    const scheme = presented && presented !== 'malformed' ? presented.scheme : 'Bearer';
    let failure: Pick<AuthFailure, 'error' | 'description' | 'scope' | 'scheme'> | null = null;
    if (e instanceof McpTokenRefused) {
      failure = e.failure;
      if (e.failure.dpopNonce) res.setHeader('DPoP-Nonce', e.failure.dpopNonce);
    } else if (e instanceof KbError && e.code === 'mcp_scope_missing') {
      failure = { error: 'insufficient_scope', description: e.message, scope: String(e.extra['required_scope']), scheme };
    } else if (e.getStatus() === 401) {
      // No error code without a credential (RFC 6750 §3.1); one that was presented and refused is invalid.
      const credential = typeof req.headers.authorization === 'string' && req.headers.authorization !== '';
      failure = credential && !(e instanceof KbError && e.code === 'mcp_token_required') ? { error: 'invalid_token', description: e.message, scheme } : { scheme };
    }
    if (failure) res.setHeader('WWW-Authenticate', wwwAuthenticate(failure, { resourceMetadata: this.resource.metadataUrl, dpopAlgorithms: this.iamTokens.dpopAlgorithms }));
  }

  /** One `denied` audit row per tools/call of a refused request, with the refusal's code. */
  private async auditRefusedCalls(body: unknown, caller: McpCaller, reason: string): Promise<void> {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (message === null || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
      const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
      const tool = typeof params?.name === 'string' && params.name.trim() !== '' ? params.name.slice(0, 200) : '(none)';
      await this.audit.record({ tenantId: caller.tenantId, tokenId: caller.tokenId, userId: caller.userId, tool, arguments: params?.arguments ?? {}, outcome: 'denied', reason, durationMs: 0 });
    }
  }

  private async authenticate(req: McpRequest, known: { caller: McpCaller | null }): Promise<McpCaller | null> {
    const header = req.headers.authorization;
    if (typeof header === 'string' && header.length > 0) {
      const iam = AccessTokenAuthenticator.presented(req.headers);
      if (iam && iam !== 'malformed' && (iam.scheme === 'DPoP' || JWT_SHAPE.test(iam.token))) return this.fromIam(req, iam, known);
      const credential = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      if (!credential) return null;
      if (credential.startsWith('mcp_')) {
        const token = await this.mcpTokens.find(credential);
        if (!token) throw new KbError(401, 'mcp_token_invalid', 'The MCP token is invalid.');
        known.caller = { tenantId: token.tenant_id, userId: token.created_by, tokenId: token.id, scopes: token.scopes };
        await this.mcpTokens.assertUsable(token);
        // The token names its tenant; a request that says otherwise is refused, never re-scoped.
        const asked = req.headers['x-tenant-id'];
        if (typeof asked === 'string' && asked !== '' && asked !== token.tenant_id) {
          throw new KbError(403, 'mcp_tenant_mismatch', 'The MCP token belongs to another tenant.');
        }
        return known.caller;
      }
      const row = await this.personalTokens.resolve(credential);
      if (!row) return null;
      const user = await this.users.findById(row.user_id);
      known.caller = user?.active ? { tenantId: row.tenant_id, userId: user.id, tokenId: null, scopes: null } : null;
      return known.caller;
    }
    const sessionToken = parseCookie(req.headers.cookie ?? '')[SESSION_COOKIE];
    const session = sessionToken ? await this.sessions.resolve(sessionToken) : null;
    if (!session) return null;
    const user = await this.users.findById(session.user_id);
    if (!user?.active) return null;
    const presented = req.headers[CSRF_HEADER];
    if (!this.sessions.csrfMatches(session, typeof presented === 'string' ? presented : undefined)) {
      throw new KbError(403, 'csrf_token_mismatch', 'CSRF token mismatch: send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.');
    }
    known.caller = { tenantId: user.tenant_id, userId: user.id, tokenId: null, scopes: null };
    return known.caller;
  }

  /**
   * An iam access token whose `aud` names this resource (or the shared audience): the KB user its
   * identity is linked to, in that user's tenant, with the token's MCP scopes as abilities.
   */
  private async fromIam(req: McpRequest, presented: { scheme: 'Bearer' | 'DPoP'; token: string }, known: { caller: McpCaller | null }): Promise<McpCaller> {
    let claims: Record<string, unknown>;
    try {
      claims = (await this.iamTokens.verify(req, presented)).payload;
    } catch (e) {
      if (e instanceof AccessTokenRejected) throw new McpTokenRefused(e.failure);
      throw e;
    }
    const linked = await this.identityLinks.resolve(claims);
    if (!linked) throw new KbError(403, 'identity_not_linked', 'No KB user is linked to this identity (same verified e-mail, or an identity link).');
    const granted = typeof claims['scope'] === 'string' ? (claims['scope'] as string).split(' ') : [];
    known.caller = { tenantId: linked.tenantId, userId: linked.userId, tokenId: null, scopes: MCP_SCOPES.filter((s) => granted.includes(s)) };
    const asked = req.headers['x-tenant-id'];
    if (typeof asked === 'string' && asked !== '' && asked !== linked.tenantId) {
      throw new KbError(403, 'mcp_tenant_mismatch', "The token's user belongs to another tenant.");
    }
    return known.caller;
  }

  /** `mcp.scope`: only tools/call messages (a JSON-RPC batch is checked message by message). */
  private checkToolCalls(body: unknown, caller: McpCaller): void {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (message === null || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
      const name = (message as { params?: { name?: unknown } }).params?.name;
      if (typeof name !== 'string' || name.trim() === '') throw new KbError(422, 'tool_name_required', 'tools/call needs params.name.');
      if (caller.scopes === null) throw new KbError(401, 'mcp_token_required', 'Calling a tool needs a tenant MCP token or an iam token for this server.');
      const scope = this.catalogue.find(name)?.scope;
      if (scope && !caller.scopes.includes(scope)) {
        throw new KbError(403, 'mcp_scope_missing', `The token lacks the ${scope} scope.`, { required_scope: scope });
      }
    }
  }

  /** `throttle:api`: the `mcp` RateLimit policy per token (else user), on every answer. */
  private async countCall(caller: McpCaller, res: Response): Promise<void> {
    const subject = caller.tokenId ? [`token:${caller.tokenId}`] : [`user:${caller.userId}`];
    const retryAfter = await this.throttle.limit(res, MCP_RATE_POLICY, subject);
    if (retryAfter !== null) throw new KbMessage(429, 'Too Many Attempts.');
  }
}

/** An iam token refused by the shared authenticator: 401 `invalid_token` / `invalid_dpop_proof` with its challenge. */
class McpTokenRefused extends KbError {
  constructor(readonly failure: AuthFailure) {
    super(failure.status, failure.error ?? 'invalid_token', failure.description ?? 'The access token is invalid.');
  }
}
