import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { undocumentedRoutes, unservedOperations } from '@platform/testing';
import { EVIDENCE_OPENAPI } from '../src/app/reviews/openapi';
import { startEvidenceWithIssuer } from './evidence-test-env';

describe('evidence-review OpenAPI document', () => {
  it('is committed unchanged at docs/api/evidence-review.openapi.json', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../docs/api/evidence-review.openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(EVIDENCE_OPENAPI)));
  });

  describe('against the booted app (API enabled)', () => {
    let running: Awaited<ReturnType<typeof startEvidenceWithIssuer>>;
    beforeAll(async () => {
      running = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true' });
    });
    afterAll(() => running?.stop());

    // A new route fails the build until the document lists it.
    it('documents every route the app registers', () => {
      expect(undocumentedRoutes(running.svc.app, EVIDENCE_OPENAPI)).toEqual([]);
    });

    it('lists no operation the app does not serve', () => {
      expect(unservedOperations(running.svc.app, EVIDENCE_OPENAPI)).toEqual([]);
    });

    it('is served at /evidence-risk-review/openapi.json without a token', async () => {
      const r = await fetch(`${running.svc.url}/evidence-risk-review/openapi.json`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { openapi: string }).openapi).toBe('3.1.0');
    });
  });
});
