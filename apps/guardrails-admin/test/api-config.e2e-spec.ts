import { resolveApiMiddleware } from '../src/app/api/api-access';
import { GuardrailsApiModule } from '../src/app/api/guardrails-api.module';
import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

describe('guardrails admin API configuration', () => {
  it('has no routes unless api.enabled is true (the default)', async () => {
    const { svc, issuer, stop } = await startGuardrailsAdminWithIssuer({ GUARDRAILS_API_ENABLED: 'false' });
    try {
      const token = await issuer.mint({ scope: 'guardrails:admin' });
      const r = await fetch(`${svc.url}/guardrails/api/overview`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(404);
      expect((await fetch(`${svc.url}/health/live`)).status).toBe(200);
    } finally {
      await stop();
    }
  });

  it('refuses to boot when enabled with an empty middleware list, or with an unknown middleware', () => {
    expect(() => GuardrailsApiModule.register({ enabled: true, prefix: 'guardrails/api', middleware: ' , ' })).toThrow(/middleware list \(GUARDRAILS_API_MIDDLEWARE\) is empty/);
    expect(() => resolveApiMiddleware('jwt, basic', true)).toThrow(/unknown middleware: basic/);
    expect(GuardrailsApiModule.register({ enabled: false, prefix: 'guardrails/api', middleware: '' })).toEqual([]);
  });
});
