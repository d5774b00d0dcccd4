import { buildRoutes, DEFAULT_BODY_LIMITS, DEFAULT_ROUTES, FALLBACK_BODY_LIMIT, matchRoute, matchUpstreamHealth } from './route-table';

const upstreams = {
  iam: 'http://iam:3001',
  guardrails: 'http://guardrails:3002',
  kb: 'http://kb:3003/',
  evidence: 'http://evidence:3004',
};

describe('gateway route table', () => {
  const routes = buildRoutes(DEFAULT_ROUTES, upstreams);

  it.each([
    ['/oauth/token', 'http://iam:3001'],
    ['/.well-known/jwks.json', 'http://iam:3001'],
    ['/.well-known/oauth-authorization-server', 'http://iam:3001'],
    ['/.well-known/oauth-protected-resource', 'http://iam:3001'],
    ['/.well-known/oauth-protected-resource/mcp/kb', 'http://kb:3003'],
    ['/.well-known/oauth-protected-resource/evidence-risk-review/mcp', 'http://evidence:3004'],
    ['/.well-known/oauth-protected-resource/mcp/kbx', 'http://iam:3001'],
    ['/api/iam/v1/applications/x/client', 'http://iam:3001'],
    ['/login?next=/', 'http://iam:3001'],
    ['/guardrails/api/overview', 'http://guardrails:3002'],
    ['/api/kb/chat', 'http://kb:3003'],
    ['/api/auth/token', 'http://kb:3003'],
    ['/mcp/kb', 'http://kb:3003'],
    ['/widget/embed.js', 'http://kb:3003'],
    ['/evidence-risk-review/reviews', 'http://evidence:3004'],
  ])('sends %s to %s', (url, upstream) => {
    expect(matchRoute(routes, url)?.upstream).toBe(upstream);
  });

  it.each(['/oauthx', '/api', '/api/kbx/chat', '/', '/health/ready', '/widgets'])('does not route %s', (url) => {
    expect(matchRoute(routes, url)).toBeUndefined();
  });

  it('prefers the longest prefix', () => {
    const custom = buildRoutes({ '/api': 'http://a:1', '/api/kb': 'http://b:2' }, upstreams);
    expect(matchRoute(custom, '/api/kb/x')?.upstream).toBe('http://b:2');
    expect(matchRoute(custom, '/api/other')?.upstream).toBe('http://a:1');
  });

  it('names a route by its upstream, or by its prefix when its target is a URL (the name is public, the URL is not)', () => {
    const custom = buildRoutes({ '/api/kb': 'kb', '/x/': 'http://10.0.0.5:80' }, upstreams);
    expect(custom.map((r) => [r.prefix, r.name, r.upstream])).toEqual([
      ['/api/kb', 'kb', 'http://kb:3003'],
      ['/x', '/x', 'http://10.0.0.5:80'],
    ]);
  });

  it('refuses a route without a usable upstream', () => {
    expect(() => buildRoutes({ '/x': 'nowhere' }, upstreams)).toThrow(/no valid upstream/);
    expect(() => buildRoutes({ x: 'iam' }, upstreams)).toThrow(/must start with/);
  });

  it('maps /health/<upstream>/<probe> to that upstream', () => {
    expect(matchUpstreamHealth(routes, '/health/kb/ready')).toEqual({
      route: expect.objectContaining({ name: 'kb', upstream: 'http://kb:3003' }),
      path: '/health/ready',
    });
    expect(matchUpstreamHealth(routes, '/health/iam/live')?.path).toBe('/health/live');
    expect(matchUpstreamHealth(routes, '/health/nobody/ready')).toBeUndefined();
    expect(matchUpstreamHealth(routes, '/health/ready')).toBeUndefined();
  });

  it('limits bodies per upstream, overridable per prefix', () => {
    expect(matchRoute(routes, '/api/kb/ingest')?.maxBodyBytes).toBe(DEFAULT_BODY_LIMITS.kb);
    expect(matchRoute(routes, '/oauth/token')?.maxBodyBytes).toBe(DEFAULT_BODY_LIMITS.iam);
    const custom = buildRoutes({ ...DEFAULT_ROUTES, '/x': 'http://x:1' }, upstreams, { '/api/widget': 1000 });
    expect(matchRoute(custom, '/api/widget/chat')?.maxBodyBytes).toBe(1000);
    expect(matchRoute(custom, '/api/kb/chat')?.maxBodyBytes).toBe(DEFAULT_BODY_LIMITS.kb);
    expect(matchRoute(custom, '/x/y')?.maxBodyBytes).toBe(FALLBACK_BODY_LIMIT);
    expect(() => buildRoutes(DEFAULT_ROUTES, upstreams, { '/nowhere': 1 })).toThrow(/names no route/);
    expect(() => buildRoutes(DEFAULT_ROUTES, upstreams, { '/api/kb': -1 })).toThrow(/whole number/);
  });
});
