import { ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ACCESS_TOKEN_AUTHENTICATOR, AccessTokenAuthenticator, AUTH_RESOURCE, AuthFailure, AuthResource, authenticateWith, takeCredential, wwwAuthenticate } from '@platform/auth';
import type { Response } from 'express';
import { PersonalAccessTokenCredential, PersonalAccessTokenStrategy } from '../../auth/strategies/personal-access-token.strategy';
import { SessionCredential, SessionStrategy } from '../../auth/strategies/session.strategy';
import { TenantStatusReader } from '../../auth/tenant-status.reader';
import { ThrottleService } from '../../auth/throttle.service';
import { KbError, KbMessage } from '../../errors/kb-errors';
import { MCP_RATE_POLICY } from '../mcp-scopes';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { McpAuditService, McpAuditUnavailable } from '../audit/mcp-audit.service';
import { McpCaller, McpRequest } from './mcp-caller';
import { claimantOf, noteClaimant } from './mcp-claimant';
import { McpIamTokenStrategy, McpTokenRefused } from './mcp-iam-token.strategy';
import { McpCredential, McpTokenStrategy } from './mcp-token.strategy';

/** What one of the strategies accepted for /mcp/kb. */
type McpAcceptedCredential = McpCredential | PersonalAccessTokenCredential | SessionCredential;

/** Where passport leaves the accepted credential until the guard has judged it. */
const CREDENTIAL_PROPERTY = 'mcpCredential';

/**
 * `auth:guard` plus `mcp.scope` for /mcp/kb, over passport strategies tried in order: an iam
 * access token for this resource (Bearer, or DPoP with its proof) acts as the KB user its identity
 * is linked to, in that user's tenant, with the MCP scopes the token carries; a tenant MCP token
 * (`mcp_…`) authenticates in its own tenant; a personal access token or a session (with its CSRF
 * echo) may initialize and list tools, but every tools/call in the JSON-RPC body needs a token
 * carrying the tool's scope. Answers before the transport so that the errors are HTTP statuses
 * with the reference's codes, not JSON-RPC errors; 401s and scope refusals carry the challenge
 * that points clients to the RFC 9728 metadata.
 */
@Injectable()
export class McpAuthGuard extends AuthGuard() {
  constructor(
    private readonly tenantStatus: TenantStatusReader,
    private readonly throttle: ThrottleService,
    private readonly catalogue: KbToolCatalogue,
    private readonly audit: McpAuditService,
    @Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly iamTokens: AccessTokenAuthenticator,
    @Inject(AUTH_RESOURCE) private readonly resource: AuthResource,
    iamTokenStrategy: McpIamTokenStrategy,
    mcpTokenStrategy: McpTokenStrategy,
    personalAccessTokens: PersonalAccessTokenStrategy,
    sessions: SessionStrategy,
  ) {
    super(authenticateWith(iamTokenStrategy, mcpTokenStrategy, personalAccessTokens, sessions));
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<McpRequest>();
    const res = ctx.switchToHttp().getResponse<Response>();
    try {
      await super.canActivate(ctx);
      const caller = this.callerOf(req, takeCredential<McpAcceptedCredential>(req, CREDENTIAL_PROPERTY));
      const status = await this.tenantStatus.status(caller.tenantId);
      if (!status) throw new KbError(403, 'tenant_forbidden', 'You may not act in this tenant.');
      if (status !== 'active') throw new KbError(403, 'tenant_suspended', 'This tenant is suspended.');
      this.checkToolCalls(req.body, caller);
      await this.countCall(caller, res, req.body);
      req.mcpCaller = caller;
      return true;
    } catch (e) {
      this.challenge(e, req, res);
      const known = claimantOf(req);
      if (e instanceof KbError && known) {
        // The calls are refused either way; a failed audit write (logged) must not change the answer.
        await this.auditRefusedCalls(req.body, known, e.code).catch((failure: unknown) => {
          if (!(failure instanceof McpAuditUnavailable)) throw failure;
        });
      }
      throw e;
    }
  }

  override getAuthenticateOptions(): { property: string } {
    return { property: CREDENTIAL_PROPERTY };
  }

  /** No strategy accepted the request: a guest. A strategy's own refusal (an HTTP error) stands. */
  override handleRequest<T = McpAcceptedCredential>(err: unknown, credential: McpAcceptedCredential | false): T {
    if (err) throw err;
    if (!credential) throw new KbMessage(401, 'Unauthenticated.');
    return credential as T;
  }

  /** A session or personal access token may list tools but holds no MCP scopes; a session must echo its CSRF token. */
  private callerOf(req: McpRequest, credential: McpAcceptedCredential): McpCaller {
    if (credential.kind === 'mcp') return credential.caller;
    if (credential.kind === 'session' && !credential.csrfOk) {
      throw new KbError(403, 'csrf_token_mismatch', 'CSRF token mismatch: send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.');
    }
    const caller: McpCaller =
      credential.kind === 'token'
        ? { tenantId: credential.token.tenant_id, userId: credential.user.id, tokenId: null, scopes: null }
        : { tenantId: credential.user.tenant_id, userId: credential.user.id, tokenId: null, scopes: null };
    noteClaimant(req, caller);
    return caller;
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
    for (const params of toolCallParams(body)) {
      const tool = typeof params?.name === 'string' && params.name.trim() !== '' ? params.name.slice(0, 200) : '(none)';
      await this.audit.record({ tenantId: caller.tenantId, tokenId: caller.tokenId, userId: caller.userId, tool, arguments: params?.arguments ?? {}, outcome: 'denied', reason, durationMs: 0 });
    }
  }

  /** `mcp.scope`: only tools/call messages (a JSON-RPC batch is checked message by message). */
  private checkToolCalls(body: unknown, caller: McpCaller): void {
    for (const params of toolCallParams(body)) {
      const name = params?.name;
      if (typeof name !== 'string' || name.trim() === '') throw new KbError(422, 'tool_name_required', 'tools/call needs params.name.');
      // The protocol's own parser would answer a JSON-RPC internal error with its validator's dump.
      const args = params?.arguments;
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
        throw new KbError(422, 'tool_arguments_invalid', 'tools/call params.arguments must be an object.');
      }
      if (caller.scopes === null) throw new KbError(401, 'mcp_token_required', 'Calling a tool needs a tenant MCP token or an iam token for this server.');
      const scope = this.catalogue.find(name)?.scope;
      if (scope && !caller.scopes.includes(scope)) {
        throw new KbError(403, 'mcp_scope_missing', `The token lacks the ${scope} scope.`, { required_scope: scope });
      }
    }
  }

  /**
   * `throttle:api`: the `mcp` RateLimit policy per token (else user), on every answer. A JSON-RPC
   * batch counts each of its messages, so a batch of a hundred tool calls costs what a hundred
   * requests do instead of one.
   */
  private async countCall(caller: McpCaller, res: Response, body: unknown): Promise<void> {
    const subject = caller.tokenId ? [`token:${caller.tokenId}`] : [`user:${caller.userId}`];
    const units = Array.isArray(body) ? Math.max(1, body.length) : 1;
    const retryAfter = await this.throttle.limit(res, MCP_RATE_POLICY, subject, units);
    if (retryAfter !== null) throw new KbMessage(429, 'Too Many Attempts.');
  }
}

/** The params of each tools/call message of a request body (one message or a JSON-RPC batch). */
function* toolCallParams(body: unknown): Iterable<{ name?: unknown; arguments?: unknown } | undefined> {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (message === null || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
    yield (message as { params?: { name?: unknown; arguments?: unknown } }).params;
  }
}
