import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { undocumentedRoutes, unservedOperations } from '@platform/testing';
import { KB_OPENAPI } from '../src/app/openapi';
import { startKb } from './kb-test-env';

describe('kb-api OpenAPI document', () => {
  describe('against the booted app', () => {
    let running: Awaited<ReturnType<typeof startKb>>;
    beforeAll(async () => {
      // Every optional area on, so every route the app can serve is registered.
      running = await startKb({ KB_PROMOTION_ENABLED: 'true', KB_ANONYMOUS_CHAT_ENABLED: 'true' });
    });
    afterAll(() => running?.stop());

    // A new route fails the build until the document lists it.
    it('documents every route the app registers', () => {
      expect(undocumentedRoutes(running.svc.app, KB_OPENAPI)).toEqual([]);
    });

    it('lists no operation the app does not serve', () => {
      expect(unservedOperations(running.svc.app, KB_OPENAPI)).toEqual([]);
    });

    it('is served at /api/kb/openapi.json without authentication', async () => {
      const r = await fetch(`${running.svc.url}/api/kb/openapi.json`);
      expect(r.status).toBe(200);
      const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/api/kb/chat');
    });
  });

  it('declares every path parameter it uses', () => {
    for (const [path, ops] of Object.entries(KB_OPENAPI.paths)) {
      const inPath = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(
        ops as Record<string, { parameters?: Array<{ in: string; name: string }> }>,
      )) {
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        expect([method, path, declared]).toEqual([method, path, inPath]);
      }
    }
  });

  it('is committed unchanged at docs/api/kb-api.openapi.json (npm run openapi)', () => {
    const committed = JSON.parse(
      readFileSync(join(__dirname, '../../../docs/api/kb-api.openapi.json'), 'utf8'),
    );
    expect(committed).toEqual(JSON.parse(JSON.stringify(KB_OPENAPI)));
  });
});
