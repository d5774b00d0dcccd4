import { RunningService, TestJwksIssuer } from '@platform/testing';
import { startEvidenceWithIssuer } from './evidence-test-env';

describe('evidence-review with api.enabled off (the default)', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;

  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startEvidenceWithIssuer());
  });
  afterAll(() => stop());

  it('has no review routes at all, even for an authorised caller', async () => {
    const token = await issuer.mint({ scope: 'evidence:review' });
    for (const path of ['/evidence-risk-review/profiles', '/evidence-risk-review/taxonomy']) {
      expect((await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    }
  });
});
