import { applyRateLimitHeaders, formatRateLimit, formatRateLimitPolicy, HeaderSink } from './rate-limit-headers';

/** A response's header map, as Express and node:http keep it. */
function sink(): HeaderSink & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return { headers, getHeader: (n) => headers[n.toLowerCase()], setHeader: (n, v) => (headers[n.toLowerCase()] = v) };
}

describe('rate-limit headers', () => {
  const policy = { name: 'default', quota: 120, windowSec: 60 };

  it('formats the draft structured-field items', () => {
    expect(formatRateLimitPolicy(policy)).toBe('"default";q=120;w=60');
    expect(formatRateLimit(policy, { remaining: 17, resetSec: 42 })).toBe('"default";r=17;t=42');
    expect(formatRateLimit(policy, { remaining: -3, resetSec: 41.7 })).toBe('"default";r=0;t=41');
  });

  it('lists every policy that judged the request, once each, and adds Retry-After when exceeded', () => {
    const res = sink();
    applyRateLimitHeaders(res, { name: 'widget-ip', quota: 120, windowSec: 60 }, { remaining: 100, resetSec: 30 });
    applyRateLimitHeaders(res, { name: 'widget-key', quota: 60, windowSec: 60 }, { remaining: 5, resetSec: 30 });
    applyRateLimitHeaders(res, { name: 'widget-key', quota: 60, windowSec: 60 }, { remaining: 4, resetSec: 29 });
    expect(res.headers['ratelimit-policy']).toBe('"widget-ip";q=120;w=60, "widget-key";q=60;w=60');
    expect(res.headers['ratelimit']).toBe('"widget-ip";r=100;t=30, "widget-key";r=4;t=29');
    expect(res.headers['retry-after']).toBeUndefined();

    applyRateLimitHeaders(res, { name: 'widget-key', quota: 60, windowSec: 60 }, { remaining: 0, resetSec: 0 }, true);
    expect(res.headers['ratelimit']).toBe('"widget-ip";r=100;t=30, "widget-key";r=0;t=0');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('refuses a policy name that is not a plain token', () => {
    expect(() => formatRateLimitPolicy({ name: 'a"b', quota: 1, windowSec: 1 })).toThrow('invalid rate-limit policy name');
  });
});
