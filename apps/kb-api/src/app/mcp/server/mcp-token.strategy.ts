import { Injectable } from '@nestjs/common';
import { AppPassportStrategy } from '@platform/auth';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { bearerCredential } from '../../auth/strategies/credentials';
import { KbError } from '../../errors/kb-errors';
import { McpTokensService } from '../tokens/mcp-tokens.service';
import type { McpCaller } from './mcp-caller';
import { noteClaimant } from './mcp-claimant';

export const MCP_TOKEN_STRATEGY = 'kb-mcp-token';

/** A caller of /mcp/kb whose credential one of the MCP strategies accepted. */
export interface McpCredential {
  kind: 'mcp';
  caller: McpCaller;
}

/**
 * `Authorization: Bearer mcp_…`: a tenant MCP token, acting in its own tenant with its scopes. An
 * unknown token is 401 `mcp_token_invalid`; an expired or revoked one answers as the token service
 * says; a request naming another tenant (X-Tenant-Id) is refused, never re-scoped.
 */
@Injectable()
export class McpTokenStrategy extends AppPassportStrategy(Strategy, MCP_TOKEN_STRATEGY) {
  constructor(private readonly tokens: McpTokensService) {
    super();
  }

  async validate(req: Request): Promise<McpCredential | false> {
    const credential = bearerCredential(req.headers);
    if (!credential?.startsWith('mcp_')) return false;
    const token = await this.tokens.find(credential);
    if (!token) throw new KbError(401, 'mcp_token_invalid', 'The MCP token is invalid.');
    const caller: McpCaller = { tenantId: token.tenant_id, userId: token.created_by, tokenId: token.id, scopes: token.scopes };
    noteClaimant(req, caller);
    await this.tokens.assertUsable(token);
    const asked = req.headers['x-tenant-id'];
    if (typeof asked === 'string' && asked !== '' && asked !== token.tenant_id) {
      throw new KbError(403, 'mcp_tenant_mismatch', 'The MCP token belongs to another tenant.');
    }
    return { kind: 'mcp', caller };
  }
}
