import { AccessTokenAuthenticator, JwtVerifier } from '@platform/auth';
import { TestJwksIssuer } from '@platform/testing';
import type { Request, Response } from 'express';
import passport from 'passport';
import { KbError } from '../../errors/kb-errors';
import type { IdentityLinksService } from '../../identity-links/identity-links.service';
import type { UsersRepository } from '../../identity/users.repository';
import { MCP_IAM_TOKEN_STRATEGY, McpIamTokenStrategy, McpTokenRefused } from '../../mcp/server/mcp-iam-token.strategy';
import { MCP_TOKEN_STRATEGY, McpTokenStrategy } from '../../mcp/server/mcp-token.strategy';
import type { McpTokensService } from '../../mcp/tokens/mcp-tokens.service';
import type { WidgetKeysRepository } from '../../widget/widget-keys.repository';
import { WIDGET_KEY_STRATEGY, WidgetKeyStrategy } from '../../widget/widget-key.strategy';
import type { WidgetTokensService } from '../../widget/widget-tokens.service';
import type { SessionsService } from '../sessions.service';
import type { TenantStatusReader } from '../tenant-status.reader';
import type { TokenIdentities } from '../token-identities';
import { IAM_TOKEN_STRATEGY, IamTokenStrategy } from './iam-token.strategy';
import { PERSONAL_ACCESS_TOKEN_STRATEGY, PersonalAccessTokenStrategy } from './personal-access-token.strategy';
import { SESSION_STRATEGY, SessionStrategy } from './session.strategy';

interface Outcome {
  err: unknown;
  user: unknown;
}

/** Runs one registered passport strategy, by name, on a bare request, as AuthGuard does. */
function authenticate(name: string, headers: Record<string, string>, options: Record<string, unknown> = {}): Promise<Outcome> {
  const req = { method: 'POST', originalUrl: '/mcp/kb', url: '/mcp/kb', headers, ip: '127.0.0.1' } as unknown as Request;
  return new Promise((resolve, reject) =>
    passport.authenticate(name, { session: false, ...options }, (err: unknown, user: unknown) => resolve({ err, user }))(req, {} as Response, reject),
  );
}

const stub = <T>(value: Partial<T>) => value as T;

describe("kb-api's passport strategies", () => {
  let issuer: TestJwksIssuer;
  let authenticator: AccessTokenAuthenticator;

  beforeAll(async () => {
    issuer = await new TestJwksIssuer().start();
    const verifier = new JwtVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: ['platform', 'https://kb.test/mcp/kb'] });
    authenticator = new AccessTokenAuthenticator(verifier, { publicOrigin: 'https://kb.test' });
  });
  afterAll(() => issuer.stop());

  it('are each registered under their passport name and under a name of their own', () => {
    const strategies: Array<[string, { instanceName: string }]> = [
      [PERSONAL_ACCESS_TOKEN_STRATEGY, new PersonalAccessTokenStrategy(stub<TokenIdentities>({}))],
      [SESSION_STRATEGY, new SessionStrategy(stub<SessionsService>({}), stub<UsersRepository>({}))],
      [IAM_TOKEN_STRATEGY, new IamTokenStrategy(authenticator)],
      [MCP_TOKEN_STRATEGY, new McpTokenStrategy(stub<McpTokensService>({}))],
      [MCP_IAM_TOKEN_STRATEGY, new McpIamTokenStrategy(authenticator, stub<IdentityLinksService>({}))],
      [WIDGET_KEY_STRATEGY, new WidgetKeyStrategy(stub<WidgetKeysRepository>({}), stub<WidgetTokensService>({}), stub<TenantStatusReader>({}), stub({}))],
    ];
    const registry = passport as unknown as { _strategy(name: string): unknown };
    for (const [name, strategy] of strategies) {
      expect(registry._strategy(name)).toBe(strategy);
      expect(strategy.instanceName).toMatch(new RegExp(`^${name}#\\d+$`));
      expect(registry._strategy(strategy.instanceName)).toBe(strategy);
    }
  });

  it('personal access token: a revoked or unknown token is no caller; other credentials are not looked at', async () => {
    const resolved: string[] = [];
    new PersonalAccessTokenStrategy(stub<TokenIdentities>({ resolve: async (token: string) => (resolved.push(token), null) }));
    expect(await authenticate(PERSONAL_ACCESS_TOKEN_STRATEGY, { authorization: 'Bearer kbp_revokedrevokedrevoked0000' })).toEqual({ err: null, user: false });
    expect(await authenticate(PERSONAL_ACCESS_TOKEN_STRATEGY, { authorization: 'Bearer mcp_sometoken' })).toEqual({ err: null, user: false });
    expect(resolved).toEqual(['kbp_revokedrevokedrevoked0000']);
  });

  it('session: an unknown session is no caller, and a request with an Authorization header is not a session', async () => {
    const looked: string[] = [];
    new SessionStrategy(stub<SessionsService>({ resolve: async (token: string) => (looked.push(token), null) }), stub<UsersRepository>({}));
    expect(await authenticate(SESSION_STRATEGY, { cookie: 'kb_session=kbs_unknownunknownunknown00' })).toEqual({ err: null, user: false });
    expect(await authenticate(SESSION_STRATEGY, { cookie: 'kb_session=kbs_otherotherotherother000', authorization: 'Bearer x' })).toEqual({ err: null, user: false });
    expect(looked).toEqual(['kbs_unknownunknownunknown00']);
  });

  it('iam token: a token for another audience is no caller; one for this service is', async () => {
    new IamTokenStrategy(authenticator);
    const foreign = await issuer.mint({ audience: 'https://elsewhere.test', scope: 'kb:read' });
    expect(await authenticate(IAM_TOKEN_STRATEGY, { authorization: `Bearer ${foreign}` })).toEqual({ err: null, user: false });
    const own = await issuer.mint({ scope: 'kb:read', extra: { tenant_id: 'acme' } });
    const accepted = await authenticate(IAM_TOKEN_STRATEGY, { authorization: `Bearer ${own}` });
    expect(accepted).toMatchObject({ err: null, user: { kind: 'iam', claims: { scope: 'kb:read', tenant_id: 'acme' } } });
  });

  it('MCP iam token: a token for another audience is refused with its challenge', async () => {
    new McpIamTokenStrategy(authenticator, stub<IdentityLinksService>({ resolve: async () => ({ tenantId: 'default', userId: '1' }) as never }));
    const foreign = await issuer.mint({ audience: 'https://elsewhere.test', scope: 'mcp:tools:read' });
    const { err } = await authenticate(MCP_IAM_TOKEN_STRATEGY, { authorization: `Bearer ${foreign}` });
    expect(err).toBeInstanceOf(McpTokenRefused);
    expect((err as McpTokenRefused).failure).toMatchObject({ status: 401, error: 'invalid_token', scheme: 'Bearer' });
  });

  it('MCP token: an unknown token is 401 mcp_token_invalid; a token of another tenant is 403 mcp_tenant_mismatch', async () => {
    const token = { id: '7', tenant_id: 'acme', created_by: '3', scopes: ['mcp:tools:read'] };
    new McpTokenStrategy(stub<McpTokensService>({ find: async (t: string) => (t === 'mcp_known' ? token : null) as never, assertUsable: async () => undefined }));
    const unknown = await authenticate(MCP_TOKEN_STRATEGY, { authorization: 'Bearer mcp_unknown' });
    expect(unknown.err).toBeInstanceOf(KbError);
    expect(unknown.err).toMatchObject({ code: 'mcp_token_invalid' });
    const foreign = await authenticate(MCP_TOKEN_STRATEGY, { authorization: 'Bearer mcp_known', 'x-tenant-id': 'default' });
    expect(foreign.err).toMatchObject({ code: 'mcp_tenant_mismatch' });
    expect(await authenticate(MCP_TOKEN_STRATEGY, { authorization: 'Bearer mcp_known' })).toMatchObject({ err: null, user: { kind: 'mcp', caller: { tenantId: 'acme', tokenId: '7' } } });
  });

  it("widget key: an unknown key is 401 widget_key_invalid; a key whose tenant is suspended is 403 widget_key_inactive", async () => {
    const key = { id: '5', tenant_id: 'acme', active: true, allowed_origins: ['https://shop.test'] };
    new WidgetKeyStrategy(
      stub<WidgetKeysRepository>({ findByPublicKey: async (k: string) => (k === 'pk_knownknownknown' ? key : null) as never }),
      stub<WidgetTokensService>({}),
      stub<TenantStatusReader>({ status: async () => 'suspended' }),
      stub({}),
    );
    const unknown = await authenticate(WIDGET_KEY_STRATEGY, { 'x-widget-key': 'pk_unknownunknown', origin: 'https://shop.test' }, { identitySecret: false });
    expect(unknown.err).toMatchObject({ code: 'widget_key_invalid' });
    const suspended = await authenticate(WIDGET_KEY_STRATEGY, { 'x-widget-key': 'pk_knownknownknown', origin: 'https://shop.test' }, { identitySecret: false });
    expect(suspended.err).toMatchObject({ code: 'widget_key_inactive' });
  });
});
