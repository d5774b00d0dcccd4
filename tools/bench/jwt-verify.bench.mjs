// Offline verification throughput of libs/shared/auth's JwtVerifier on one core: ES256 tokens
// from a real JWKS endpoint on 127.0.0.1 (fetched once, then cached), verified back to back, first
// with every signature checked (the verified-token cache off), then with the cache (a client's
// repeated calls with the same token, as services see them).
//   node -r ./tools/swc-register.cjs tools/bench/jwt-verify.bench.mjs [--tokens 20000]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { JwtVerifier } = require('@platform/auth');
const { TestJwksIssuer } = require('@platform/testing');

const { values } = parseArgs({ options: { tokens: { type: 'string', default: '20000' } } });
const count = Number(values.tokens);
const issuer = await new TestJwksIssuer().start();
try {
  const distinct = await Promise.all(Array.from({ length: 200 }, (_, i) => issuer.mint({ scope: 'evidence:review', sub: `client-${i}` })));
  const run = async (verifiedCacheSize) => {
    const verifier = new JwtVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: 'platform', verifiedCacheSize });
    for (let i = 0; i < 2000; i++) await verifier.verify(distinct[i % distinct.length]);
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i++) await verifier.verify(distinct[i % distinct.length]);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds: Math.round(seconds * 1000) / 1000, tokens_per_sec: Math.round(count / seconds) };
  };
  const signatureChecked = await run(0);
  const cached = await run(10_000);
  process.stdout.write(JSON.stringify({ tokens: count, signature_checked: signatureChecked, cached, jwks_fetches: issuer.jwksFetches }, null, 2) + '\n');
} finally {
  await issuer.stop();
}
