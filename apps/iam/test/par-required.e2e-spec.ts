import { RunningService } from '@platform/testing';
import * as oidc from 'openid-client';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { startIam } from './iam-test-env';

const REDIRECT = 'http://127.0.0.1:4997/callback';

describe('iam: OAUTH_REQUIRE_PAR for every client', () => {
  let iam: RunningService & { issuer: string };

  beforeAll(async () => {
    iam = await startIam({ OAUTH_REQUIRE_PAR: 'true' });
    await iam.app.get(ClientsRepository).upsert({
      clientId: 'plain-spa',
      name: 'SPA',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT],
      scopes: ['kb:read'],
      firstParty: true,
    });
  });

  afterAll(() => iam.stop());

  it('says so in its metadata, refuses a request that was not pushed, and takes a pushed one', async () => {
    const config = await oidc.discovery(new URL(iam.issuer), 'plain-spa', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().require_pushed_authorization_requests).toBe(true);
    const verifier = oidc.randomPKCECodeVerifier();
    const params = { redirect_uri: REDIRECT, scope: 'kb:read', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
    const direct = new URL((await fetch(oidc.buildAuthorizationUrl(config, params), { redirect: 'manual' })).headers.get('location')!);
    expect(direct.searchParams.get('error')).toBe('invalid_request');
    const pushed = await oidc.buildAuthorizationUrlWithPAR(config, params);
    const login = await fetch(pushed, { redirect: 'manual' });
    // No session: on to sign in, the pushed request continuing under a new request_uri.
    expect(login.status).toBe(302);
    const returnTo = new URL(login.headers.get('location')!, iam.url).searchParams.get('return_to')!;
    expect(returnTo).toMatch(/^\/oauth\/authorize\?client_id=plain-spa&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3A/);
    expect(returnTo).not.toContain(pushed.searchParams.get('request_uri')!);
  });
});
