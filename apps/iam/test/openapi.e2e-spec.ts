import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunningService, undocumentedRoutes, unservedOperations } from '@platform/testing';
import { IAM_OPENAPI } from '../src/app/openapi';
import { startIam } from './iam-test-env';

describe('iam OpenAPI document', () => {
  it('is committed unchanged at docs/api/iam.openapi.json (npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../docs/api/iam.openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(IAM_OPENAPI)));
  });

  it('declares every path parameter it uses', () => {
    for (const [path, ops] of Object.entries(IAM_OPENAPI.paths)) {
      const inPath = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(ops as Record<string, { parameters?: Array<{ in: string; name: string }> }>)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
        expect([method, path, declared]).toEqual([method, path, inPath]);
      }
    }
  });

  describe('against the booted app (self-fetch on)', () => {
    let running: RunningService;
    beforeAll(async () => {
      running = await startIam({ IAM_OAUTH_CLIENT_SELFFETCH: 'true' });
    });
    afterAll(() => running?.stop());

    // A new route fails the build until the document lists it.
    it('documents every route the app registers', () => {
      expect(undocumentedRoutes(running.app, IAM_OPENAPI)).toEqual([]);
    });

    it('lists no operation the app does not serve', () => {
      expect(unservedOperations(running.app, IAM_OPENAPI)).toEqual([]);
    });

    it('is served at /api/iam/openapi.json without a token', async () => {
      const r = await fetch(`${running.url}/api/iam/openapi.json`);
      expect(r.status).toBe(200);
      const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/oauth/token');
    });
  });
});
