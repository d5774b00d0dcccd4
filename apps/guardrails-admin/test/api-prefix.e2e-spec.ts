import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

describe('guardrails admin API under a configured prefix', () => {
  it('mounts every route under api.prefix', async () => {
    const { svc, issuer, stop } = await startGuardrailsAdminWithIssuer({ GUARDRAILS_API_ENABLED: 'true', GUARDRAILS_API_PREFIX: 'admin/ai-guardrails' });
    try {
      const token = await issuer.mint({ scope: 'guardrails:admin' });
      const auth = { authorization: `Bearer ${token}` };
      const r = await fetch(`${svc.url}/admin/ai-guardrails/settings`, { headers: auth });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { schema: string }).schema).toBe('guardrails.api.v1.settings');
      expect((await fetch(`${svc.url}/guardrails/api/settings`, { headers: auth })).status).toBe(404);
    } finally {
      await stop();
    }
  });
});
