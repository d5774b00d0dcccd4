import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { RunningService } from '@platform/testing';
import { McpController } from '../src/app/mcp/mcp.controller';
import { EVIDENCE_OPENAPI } from '../src/app/reviews/openapi';
import { ReviewsController } from '../src/app/reviews/reviews.controller';
import { startEvidenceWithIssuer } from './evidence-test-env';

/** Every (method, path) the controllers declare, relative to /evidence-risk-review. */
function declaredRoutes(): string[] {
  const routes: string[] = [];
  for (const controller of [ReviewsController, McpController]) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller)).replace(/^evidence-risk-review/, '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as unknown as Record<string, object>)[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler);
      if (path === undefined || name === 'constructor') continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase();
      const full = `${base}/${path === '/' ? '' : path}`.replace(/\/+$/, '').replace(/:([a-z_]+)/g, '{$1}') || '/';
      routes.push(`${method === 'all' ? 'post' : method} ${full.replace('{id}', '{review_id}')}`);
    }
  }
  return routes.sort();
}

describe('evidence-review OpenAPI document', () => {
  it('documents exactly the routes the controllers declare', () => {
    const documented = Object.entries(EVIDENCE_OPENAPI.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(declaredRoutes());
  });

  it('is committed unchanged at docs/api/evidence-review.openapi.json', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../docs/api/evidence-review.openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(EVIDENCE_OPENAPI)));
  });

  describe('served', () => {
    let svc: RunningService;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true' }));
    });
    afterAll(() => stop());

    it('at /evidence-risk-review/openapi.json without a token', async () => {
      const r = await fetch(`${svc.url}/evidence-risk-review/openapi.json`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { openapi: string }).openapi).toBe('3.1.0');
    });
  });
});
