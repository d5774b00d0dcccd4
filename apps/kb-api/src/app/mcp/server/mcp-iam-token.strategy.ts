import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_AUTHENTICATOR, AccessTokenAuthenticator, AccessTokenRejected, AppPassportStrategy, AuthFailure } from '@platform/auth';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { JWT_SHAPE } from '../../auth/strategies/credentials';
import { KbError } from '../../errors/kb-errors';
import { IdentityLinksService } from '../../identity-links/identity-links.service';
import { MCP_SCOPES } from '../mcp-scopes';
import type { McpCaller } from './mcp-caller';
import { noteClaimant } from './mcp-claimant';
import type { McpCredential } from './mcp-token.strategy';

export const MCP_IAM_TOKEN_STRATEGY = 'kb-mcp-iam-token';

/** An iam token refused by the shared authenticator: 401 `invalid_token` / `invalid_dpop_proof` with its challenge. */
export class McpTokenRefused extends KbError {
  constructor(readonly failure: AuthFailure) {
    super(failure.status, failure.error ?? 'invalid_token', failure.description ?? 'The access token is invalid.');
  }
}

/**
 * An iam access token for this resource (Bearer, or DPoP with its proof), verified offline by the
 * shared authenticator: the KB user its identity is linked to, in that user's tenant, with the MCP
 * scopes the token carries. Requests presenting anything else are not this strategy's.
 */
@Injectable()
export class McpIamTokenStrategy extends AppPassportStrategy(Strategy, MCP_IAM_TOKEN_STRATEGY) {
  constructor(
    @Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly authenticator: AccessTokenAuthenticator,
    private readonly identityLinks: IdentityLinksService,
  ) {
    super();
  }

  async validate(req: Request): Promise<McpCredential | false> {
    const presented = AccessTokenAuthenticator.presented(req.headers);
    if (!presented || presented === 'malformed' || (presented.scheme !== 'DPoP' && !JWT_SHAPE.test(presented.token))) return false;
    let claims: Record<string, unknown>;
    try {
      claims = (await this.authenticator.verify(req, presented)).payload;
    } catch (e) {
      if (e instanceof AccessTokenRejected) throw new McpTokenRefused(e.failure);
      throw e;
    }
    const linked = await this.identityLinks.resolve(claims);
    if (!linked) throw new KbError(403, 'identity_not_linked', 'No KB user is linked to this identity (same verified e-mail, or an identity link).');
    const granted = typeof claims['scope'] === 'string' ? (claims['scope'] as string).split(' ') : [];
    const caller: McpCaller = { tenantId: linked.tenantId, userId: linked.userId, tokenId: null, scopes: MCP_SCOPES.filter((s) => granted.includes(s)) };
    noteClaimant(req, caller);
    const asked = req.headers['x-tenant-id'];
    if (typeof asked === 'string' && asked !== '' && asked !== linked.tenantId) {
      throw new KbError(403, 'mcp_tenant_mismatch', "The token's user belongs to another tenant.");
    }
    return { kind: 'mcp', caller };
  }
}
