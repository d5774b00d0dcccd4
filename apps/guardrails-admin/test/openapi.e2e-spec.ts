import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { undocumentedRoutes, unservedOperations } from '@platform/testing';
import { GUARDRAILS_OPENAPI } from '../src/app/api/openapi';
import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

describe('guardrails-admin OpenAPI document', () => {
  it('is committed unchanged at docs/api/guardrails-admin.openapi.json (npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../docs/api/guardrails-admin.openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(GUARDRAILS_OPENAPI)));
  });

  describe('against the booted app (API enabled, default prefix)', () => {
    let running: Awaited<ReturnType<typeof startGuardrailsAdminWithIssuer>>;
    beforeAll(async () => {
      running = await startGuardrailsAdminWithIssuer({ GUARDRAILS_API_ENABLED: 'true' });
    });
    afterAll(() => running?.stop());

    // A new route fails the build until the document lists it.
    it('documents every route the app registers', () => {
      expect(undocumentedRoutes(running.svc.app, GUARDRAILS_OPENAPI)).toEqual([]);
    });

    it('lists no operation the app does not serve', () => {
      expect(unservedOperations(running.svc.app, GUARDRAILS_OPENAPI)).toEqual([]);
    });

    it('is served under the API prefix without a token', async () => {
      const r = await fetch(`${running.svc.url}/guardrails/api/openapi.json`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { openapi: string }).openapi).toBe('3.1.0');
    });
  });
});
