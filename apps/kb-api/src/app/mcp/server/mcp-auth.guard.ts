import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { parseCookie } from 'cookie';
import type { Response } from 'express';
import { CSRF_HEADER, SESSION_COOKIE } from '../../auth/kb-auth.guard';
import { PersonalAccessTokensService } from '../../auth/personal-access-tokens.service';
import { SessionsService } from '../../auth/sessions.service';
import { TenantStatusReader } from '../../auth/tenant-status.reader';
import { ThrottleService } from '../../auth/throttle.service';
import { KbError, KbMessage } from '../../errors/kb-errors';
import { UsersRepository } from '../../identity/users.repository';
import { MCP_RATE_POLICY } from '../mcp-scopes';
import { McpTokensService } from '../tokens/mcp-tokens.service';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { McpAuditService, McpAuditUnavailable } from '../audit/mcp-audit.service';
import { McpCaller, McpRequest } from './mcp-caller';

/**
 * `auth:guard` plus `mcp.scope` for /mcp/kb. A tenant MCP token (`mcp_…`) authenticates in its own
 * tenant; a session or personal access token may initialize and list tools, but every tools/call
 * in the JSON-RPC body needs an MCP token carrying the tool's scope. Answers before the transport
 * so that the errors are HTTP statuses with the reference's codes, not JSON-RPC errors.
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
      if (e instanceof KbError && known.caller) {
        // The calls are refused either way; a failed audit write (logged) must not change the answer.
        await this.auditRefusedCalls(req.body, known.caller, e.code).catch((failure: unknown) => {
          if (!(failure instanceof McpAuditUnavailable)) throw failure;
        });
      }
      throw e;
    }
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

  /** `mcp.scope`: only tools/call messages (a JSON-RPC batch is checked message by message). */
  private checkToolCalls(body: unknown, caller: McpCaller): void {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (message === null || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
      const name = (message as { params?: { name?: unknown } }).params?.name;
      if (typeof name !== 'string' || name.trim() === '') throw new KbError(422, 'tool_name_required', 'tools/call needs params.name.');
      if (caller.scopes === null) throw new KbError(401, 'mcp_token_required', 'Calling a tool needs a tenant MCP token.');
      const scope = this.catalogue.find(name)?.scope;
      if (scope && !caller.scopes.includes(scope)) {
        throw new KbError(403, 'mcp_scope_missing', `The MCP token lacks the ${scope} scope.`, { required_scope: scope });
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
