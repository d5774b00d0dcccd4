import { RunningService, TestDpopKey, TestJwksIssuer } from '@platform/testing';
import { startEvidenceWithIssuer } from './evidence-test-env';

/** The service's defaults (OAUTH_RESOURCE), as clients address it through the gateway. */
const RESOURCE = 'http://127.0.0.1:8080/evidence-risk-review/mcp';
const METADATA = 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/evidence-risk-review/mcp';
const KB_RESOURCE = 'http://127.0.0.1:8080/mcp/kb';

describe('evidence-review MCP as an OAuth protected resource (audience, DPoP, RFC 9728)', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true' }));
  });
  afterAll(() => stop());

  const listTools = (headers: Record<string, string>) =>
    fetch(`${svc.url}/evidence-risk-review/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  const toolNames = async (r: Response) => ((await r.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name).sort();

  it('serves its RFC 9728 metadata naming iam, its scope and its resource identifier', async () => {
    const r = await fetch(`${svc.url}/.well-known/oauth-protected-resource/evidence-risk-review/mcp`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await r.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['evidence:review'],
      bearer_methods_supported: ['header'],
      resource_name: 'Evidence risk review (MCP)',
      dpop_signing_alg_values_supported: ['ES256', 'ES384', 'ES512', 'EdDSA', 'PS256', 'RS256'],
      dpop_bound_access_tokens_required: false,
    });
  });

  it('answers 401 with a Bearer challenge pointing to the metadata, and 403 insufficient_scope naming the scope', async () => {
    const none = await listTools({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer error="invalid_request", error_description="[^"]+", resource_metadata="${METADATA}"`));
    const bad = await listTools({ authorization: 'Bearer not.a.jwt' });
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const noScope = await listTools({ authorization: `Bearer ${await issuer.mint({ audience: RESOURCE, scope: 'kb:read' })}` });
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer error="insufficient_scope", error_description="[^"]+", scope="evidence:review", resource_metadata="${METADATA}"`));
  });

  it('accepts a token for itself or for the legacy audience, refuses one for kb', async () => {
    const own = await listTools({ authorization: `Bearer ${await issuer.mint({ audience: RESOURCE, scope: 'evidence:review' })}` });
    expect(own.status).toBe(200);
    expect(await toolNames(own)).toEqual(['evidence_review.assess', 'evidence_review.label_tier', 'evidence_review.list_profiles']);
    expect((await listTools({ authorization: `Bearer ${await issuer.mint({ audience: 'platform', scope: 'evidence:review' })}` })).status).toBe(200);

    const forKb = await listTools({ authorization: `Bearer ${await issuer.mint({ audience: KB_RESOURCE, scope: 'evidence:review' })}` });
    expect(forKb.status).toBe(401);
    expect(forKb.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="claim 'aud' invalid: unexpected audience"/);
  });

  describe('a DPoP-bound token', () => {
    const boundToken = async (key: TestDpopKey) => issuer.mint({ audience: RESOURCE, scope: 'evidence:review', extra: { cnf: key.cnf } });

    it('is accepted with a proper proof (htu is the public URL), on MCP and on the review routes alike', async () => {
      const key = await TestDpopKey.generate();
      const token = await boundToken(key);
      const ok = await listTools({ authorization: `DPoP ${token}`, dpop: await key.proof({ method: 'POST', url: RESOURCE, accessToken: token }) });
      expect(ok.status).toBe(200);
      expect(await toolNames(ok)).toHaveLength(3);
      const profiles = await fetch(`${svc.url}/evidence-risk-review/profiles`, {
        headers: { authorization: `DPoP ${token}`, dpop: await key.proof({ method: 'GET', url: 'http://127.0.0.1:8080/evidence-risk-review/profiles', accessToken: token }) },
      });
      expect(profiles.status).toBe(200);
    });

    it('is refused as a plain bearer token', async () => {
      const key = await TestDpopKey.generate();
      const r = await listTools({ authorization: `Bearer ${await boundToken(key)}` });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="the token is bound to a DPoP key/);
      expect(r.headers.get('www-authenticate')).toContain(`DPoP algs="ES256`);
    });

    it('is refused with a replayed proof', async () => {
      const key = await TestDpopKey.generate();
      const token = await boundToken(key);
      const proof = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token });
      expect((await listTools({ authorization: `DPoP ${token}`, dpop: proof })).status).toBe(200);
      const replay = await listTools({ authorization: `DPoP ${token}`, dpop: proof });
      expect(replay.status).toBe(401);
      expect(replay.headers.get('www-authenticate')).toMatch(
        new RegExp(`^DPoP error="invalid_dpop_proof", error_description="the DPoP proof was already used", algs="[^"]+", resource_metadata="${METADATA}"`),
      );
    });

    it('is refused with a proof for another URL (htu)', async () => {
      const key = await TestDpopKey.generate();
      const token = await boundToken(key);
      const r = await listTools({ authorization: `DPoP ${token}`, dpop: await key.proof({ method: 'POST', url: KB_RESOURCE, accessToken: token }) });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof", error_description="DPoP proof htu does not match/);
    });
  });
});
