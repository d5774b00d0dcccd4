import { RunningService, startServiceForTest, TestJwksIssuer } from '@platform/testing';
import { evidenceUnderTest } from './evidence-test-env';

describe('evidence-review with api.enabled off (the default)', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;

  beforeAll(async () => {
    issuer = await new TestJwksIssuer().start();
    svc = await startServiceForTest(evidenceUnderTest, { IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer });
  });
  afterAll(async () => {
    await svc.stop();
    await issuer.stop();
  });

  it('has no review routes at all, even for an authorised caller', async () => {
    const token = await issuer.mint({ scope: 'evidence:review' });
    for (const path of ['/evidence-risk-review/profiles', '/evidence-risk-review/taxonomy']) {
      expect((await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    }
  });
});
