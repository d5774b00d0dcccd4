import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { DpopProof } from '@platform/auth';
import { EnvelopeCipher, generateToken, SecretHasher } from '@platform/crypto';
import { SignJWT } from 'jose';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '@platform/runtime';
import { GrantsRepository, RefreshTokenRow } from '../grants/grants.repository';
import { SigningKeysService } from '../keys/signing-keys.service';
import { IamUser, UsersRepository } from '../users/users.repository';
import { emailClaims } from './email-claims';
import { LocalTokenVerifier } from './local-token-verifier.service';
import { OAuthError } from './oauth-error';
import { ResourceIndicators } from './resource-indicators';
import { TokenIssuer } from './token-issuer.service';
import { IamConfig } from '../../config/iam-config';

type Form = Record<string, string | undefined>;

/** What a refresh token stands for; kept encrypted at rest, never in the token itself. */
interface RefreshPayload {
  userId: string;
  /**
   * The scopes the user granted, as granted: a refresh asking for fewer narrows its access token
   * only (RFC 6749 §6), and scopes the client has lost since are left out at each issue, not here.
   */
  scopes: string[];
  authTime: number;
  acr: string;
  amr: string[];
  /** RFC 8707 resources of the grant (absent in tokens issued before resource indicators). */
  resources?: string[];
  /**
   * End of the family (epoch seconds): set at the code exchange, copied by every rotation, so a
   * family lasts IAM_REFRESH_FAMILY_TTL_SEC however often it is refreshed. Absent in tokens issued
   * before it existed: their next rotation starts the count.
   */
  familyExpiresAt?: number;
}

/** What the token request adds: the resources it narrows to and its DPoP proof. */
export interface TokenRequestContext {
  resources: string[];
  proof?: DpopProof;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * The scopes of a grant its client may still use: a scope taken off the client (a manifest
 * re-applied with fewer) is dropped from every code and refresh token issued before, as a known
 * scope the client may not have is dropped at authorize (docs/iam.md, Tokens). A grant none of
 * whose scopes is left is refused: it would only mint tokens that allow nothing.
 */
function usableScopes(granted: string[], client: OAuthClient): string[] {
  const usable = granted.filter((s) => client.scopes.includes(s));
  if (granted.length && !usable.length) throw OAuthError.invalidGrant('none of the scopes of this grant is still allowed for the client');
  return usable;
}

/** Tokens for users: the authorization_code and refresh_token grants. */
@Injectable()
export class UserTokensService {
  private readonly logger = new Logger('UserTokens');

  constructor(
    private readonly grants: GrantsRepository,
    private readonly users: UsersRepository,
    private readonly issuer: TokenIssuer,
    private readonly keys: SigningKeysService,
    private readonly hasher: SecretHasher,
    private readonly cipher: EnvelopeCipher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
    private readonly resourceIndicators: ResourceIndicators,
    private readonly revocations: LocalTokenVerifier,
  ) {}

  async exchangeCode(client: OAuthClient, form: Form, ctx: TokenRequestContext): Promise<TokenResponse> {
    const code = form['code'];
    if (!code) throw OAuthError.invalidRequest('code is required');
    if (!form['redirect_uri']) throw OAuthError.invalidRequest('redirect_uri is required');
    const now = this.clock.now();
    const codeHash = this.hasher.lookupKey(code);
    if (ctx.resources.length) {
      // RFC 6749 §5.2: a resource outside the authorization is the client's own mistake, refused
      // before the code is spent so the client can still redeem it. What guards against a stolen
      // code (redirect_uri, PKCE, DPoP key) is checked after it is consumed, so a guess burns it.
      const pending = await this.grants.findCode(codeHash);
      const granted = pending && pending.client_id === client.clientId && pending.consumed_at === null ? (pending.resources ?? []) : undefined;
      if (granted) this.resourceIndicators.narrow(ctx.resources, granted);
      else this.resourceIndicators.requested(ctx.resources);
    }
    const result = await this.grants.consumeCode(codeHash, client.clientId, now);
    if (result.status === 'unknown' || result.status === 'foreign') throw OAuthError.invalidGrant('authorization code is invalid');
    if (result.status === 'reused') {
      await this.grants.revokeGrant(result.row.grant_id, 'authorization code replayed', now);
      throw OAuthError.invalidGrant('authorization code was already used; tokens issued from it are revoked');
    }
    const row = result.row;
    if (row.expires_at <= now) throw OAuthError.invalidGrant('authorization code has expired');
    if (row.redirect_uri !== form['redirect_uri']) throw OAuthError.invalidGrant('redirect_uri does not match the authorization request');

    const verifier = form['code_verifier'];
    if (row.code_challenge) {
      if (!verifier) throw OAuthError.invalidRequest('code_verifier is required');
      if (!VERIFIER.test(verifier)) throw OAuthError.invalidGrant('code_verifier is malformed');
      const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
      const expected = Buffer.from(row.code_challenge);
      if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) {
        throw OAuthError.invalidGrant('code_verifier does not match the code_challenge');
      }
    } else if (verifier !== undefined) {
      // RFC 9700 §2.1.1: a verifier without a challenge is a downgrade attempt.
      throw OAuthError.invalidGrant('code_verifier sent but no code_challenge was used');
    }
    // RFC 9449 §10: a code requested with dpop_jkt is redeemed only with a proof of that key.
    if (row.dpop_jkt && ctx.proof?.jkt !== row.dpop_jkt) throw OAuthError.invalidGrant('the authorization code is bound to another DPoP key');
    const resources = this.resourceIndicators.narrow(ctx.resources, row.resources ?? []);
    const user = await this.users.findById(row.user_id);
    if (!user?.active) throw OAuthError.invalidGrant('the user is no longer active');

    const payload: RefreshPayload = {
      userId: row.user_id,
      scopes: row.scopes,
      authTime: Math.floor(new Date(row.auth_time).getTime() / 1000),
      acr: row.acr,
      amr: row.amr,
      resources: row.resources ?? [],
      familyExpiresAt: this.clock.nowSec() + this.config.get('IAM_REFRESH_FAMILY_TTL_SEC'),
    };
    // A code issued before the client lost a scope redeems without it.
    const scopes = usableScopes(row.scopes, client);
    return this.issue(client, row.grant_id, user, payload, { scopes, resources, proof: ctx.proof }, row.nonce ?? undefined);
  }

  /**
   * RFC 6749 §5.2: a refused refresh issues nothing and spends nothing. Every check that can
   * refuse the request (DPoP key, grant, expiry, user, scope, resources) runs on the live token
   * before it rotates, so a client that asked for too much keeps its token and is not later
   * taken for a thief replaying a used one; the rotation itself then decides between concurrent
   * uses, and the checks its own row can answer are repeated on that row.
   */
  async refresh(client: OAuthClient, form: Form, ctx: TokenRequestContext): Promise<TokenResponse> {
    const token = form['refresh_token'];
    if (!token) throw OAuthError.invalidRequest('refresh_token is required');
    const now = this.clock.now();
    const tokenHash = this.hasher.lookupKey(token);
    const current = await this.grants.findRefreshToken(tokenHash);
    // Unknown, foreign and used tokens are told apart (and a reuse punished) by the rotation below.
    const live = current && current.client_id === client.clientId && current.rotated_at === null ? current : undefined;
    const checked = live ? await this.checkRefresh(client, live, form, ctx, now) : undefined;

    const result = await this.grants.rotateRefreshToken(tokenHash, client.clientId, now, ctx.proof?.jkt);
    if (result.status === 'unknown' || result.status === 'foreign') throw OAuthError.invalidGrant('refresh token is invalid');
    if (result.status === 'wrong_key') throw OAuthError.invalidGrant('refresh token is bound to a DPoP key; send a proof of that key');
    if (result.status === 'reused') {
      await this.grants.revokeGrant(result.row.grant_id, 'refresh token reused', now);
      throw OAuthError.invalidGrant('refresh token was already used; the token family is revoked');
    }
    const row = result.row;
    this.checkRefreshRow(row, now);
    // Rotation succeeds only on a live token of this client, which the checks above read.
    if (!checked || row.id !== live?.id) throw OAuthError.invalidGrant('refresh token is invalid');
    const { payload, user, scopes, resources } = checked;
    // The family keeps its end; a token from before it had one starts the count now.
    const family: RefreshPayload = { ...payload, familyExpiresAt: payload.familyExpiresAt ?? this.clock.nowSec() + this.config.get('IAM_REFRESH_FAMILY_TTL_SEC') };
    const issued = await this.issue(client, row.grant_id, user, family, { scopes, resources, proof: ctx.proof, boundTo: row.dpop_jkt ?? undefined });
    // The access token issued with the spent refresh token ends with it: the client holds the new
    // one, and a copy of the old one taken along the way stops working at iam at once. It was
    // issued no earlier than the refresh token, so it expires within a TTL from now.
    // Best effort: the refresh token is spent already, so failing here would leave the client with
    // nothing and its retry would read as a reuse and revoke the whole family; the old access token
    // then merely lives out its TTL, as it did before rotations revoked it.
    if (row.access_token_jti) {
      await this.revocations
        .revokeJti(row.access_token_jti, this.clock.nowSec() + this.config.get('IAM_ACCESS_TOKEN_TTL_SEC'))
        .catch((error: unknown) => this.logger.warn(`the access token issued with a rotated refresh token was not revoked: ${error instanceof Error ? error.message : String(error)}`));
    }
    return issued;
  }

  /** What a live refresh token allows this request, or the error that refuses it (nothing is spent yet). */
  private async checkRefresh(client: OAuthClient, row: RefreshTokenRow, form: Form, ctx: TokenRequestContext, now: Date) {
    if (row.dpop_jkt !== null && row.dpop_jkt !== ctx.proof?.jkt) {
      throw OAuthError.invalidGrant('refresh token is bound to a DPoP key; send a proof of that key');
    }
    this.checkRefreshRow(row, now);
    const payload = this.payloadOf(row);
    const user = await this.users.findById(payload.userId);
    if (!user?.active) throw OAuthError.invalidGrant('the user is no longer active');
    let scopes = usableScopes(payload.scopes, client);
    if (form['scope']) {
      // RFC 6749 §6: the narrower scope is this access token's; the grant (and the next refresh token) keeps its own.
      const asked = [...new Set(form['scope'].split(' ').filter(Boolean))];
      const extra = asked.filter((s) => !payload.scopes.includes(s));
      if (extra.length) throw OAuthError.invalidScope(`scope beyond the original grant: ${extra.join(' ')}`);
      scopes = asked.filter((s) => scopes.includes(s));
      if (!scopes.length) throw OAuthError.invalidScope('none of the requested scopes is still allowed for this client');
    }
    const resources = this.resourceIndicators.narrow(ctx.resources, payload.resources ?? []);
    return { payload, user, scopes, resources };
  }

  private checkRefreshRow(row: RefreshTokenRow, now: Date): void {
    if (row.grant_revoked_at) throw OAuthError.invalidGrant('refresh token is revoked');
    if (row.expires_at <= now) throw OAuthError.invalidGrant('refresh token has expired');
  }

  private payloadOf(row: RefreshTokenRow): RefreshPayload {
    return JSON.parse(this.cipher.decrypt(row.payload_encrypted, `refresh:${row.grant_id}`)) as RefreshPayload;
  }

  /**
   * Access token for `scopes` and `resources` (bound to the proof's key when there is one), refresh
   * token (standing for the whole grant `p`, whatever this access token was narrowed to) and
   * id_token. A public client's refresh token stays bound to the key it was first bound to, or
   * becomes bound to the key of this request (RFC 9449 §5); a confidential client's is not, since
   * its own authentication already stops a thief.
   *
   * A token for a resource (RFC 8707) also names the user's e-mail: the resource server needs it to
   * find its own account for the user (kb-api's MCP server maps a verified e-mail to a KB user), and
   * standard MCP clients ask only for the resource's own scopes, never for `email`. The e-mail is
   * read at every issue, so a refresh carries the current one.
   */
  private async issue(
    client: OAuthClient,
    grantId: string,
    user: IamUser,
    p: RefreshPayload,
    binding: { scopes: string[]; resources: string[]; proof?: DpopProof; boundTo?: string },
    nonce?: string,
  ): Promise<TokenResponse> {
    const at = await this.issuer.accessToken({
      sub: p.userId,
      clientId: client.clientId,
      scopes: binding.scopes,
      resources: binding.resources,
      jkt: binding.proof?.jkt,
      extra: { auth_time: p.authTime, acr: p.acr, amr: p.amr, sid: grantId, ...(binding.resources.length ? emailClaims(user) : {}) },
    });
    const response: TokenResponse = {
      access_token: at.token,
      token_type: binding.proof ? 'DPoP' : 'Bearer',
      expires_in: at.expiresIn,
      scope: binding.scopes.join(' '),
    };
    if (client.grantTypes.includes('refresh_token')) {
      const refresh = generateToken('iamrt');
      const ttl = this.config.get('IAM_REFRESH_TOKEN_TTL_SEC');
      // Each token lives its TTL from now, but never past the end of its family.
      const expiresSec = Math.min(this.clock.nowSec() + ttl, p.familyExpiresAt ?? Infinity);
      await this.grants.insertRefreshToken({
        tokenHash: this.hasher.lookupKey(refresh),
        grantId,
        clientId: client.clientId,
        payloadEncrypted: this.cipher.encrypt(JSON.stringify(p), `refresh:${grantId}`),
        expiresAt: new Date(expiresSec * 1000),
        dpopJkt: binding.boundTo ?? (client.isConfidential ? undefined : binding.proof?.jkt),
        accessTokenJti: at.jti,
      });
      response.refresh_token = refresh;
    }
    if (binding.scopes.includes('openid')) response.id_token = await this.idToken(client, grantId, p, at.token, nonce);
    return response;
  }

  /** OIDC Core §2: id_token with at_hash; on refresh the original auth_time and no nonce. */
  private async idToken(client: OAuthClient, grantId: string, p: RefreshPayload, accessToken: string, nonce?: string): Promise<string> {
    const signer = await this.keys.signer();
    const now = this.clock.nowSec();
    const digest = createHash('sha256').update(accessToken, 'ascii').digest();
    const claims: Record<string, unknown> = {
      auth_time: p.authTime,
      acr: p.acr,
      amr: p.amr,
      sid: grantId,
      at_hash: digest.subarray(0, digest.length / 2).toString('base64url'),
    };
    if (nonce !== undefined) claims['nonce'] = nonce;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: signer.kid })
      .setIssuer(this.issuer.issuer)
      .setSubject(p.userId)
      .setAudience(client.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.config.get('IAM_ACCESS_TOKEN_TTL_SEC'))
      .sign(signer.privateKey);
  }
}
