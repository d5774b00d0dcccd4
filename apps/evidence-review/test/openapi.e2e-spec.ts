import { ServedOpenApiDocument } from '@platform/runtime';
import { committedOpenApiDocument, pathParameterMismatches, undocumentedRoutes, unservedOperations } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startEvidenceWithIssuer } from './evidence-test-env';

type Doc = { paths: Record<string, object> };

describe('evidence-review OpenAPI document (generated from the controllers and DTOs)', () => {
  let running: Awaited<ReturnType<typeof startEvidenceWithIssuer>>;
  let served: Doc;
  beforeAll(async () => {
    running = await startEvidenceWithIssuer(OPENAPI_ENV);
    served = running.svc.app.get(ServedOpenApiDocument).document() as unknown as Doc;
  });
  afterAll(() => running?.stop());

  // A new route fails the build until its controller documents it.
  it('documents every route the app registers', () => {
    expect(undocumentedRoutes(running.svc.app, served)).toEqual([]);
  });

  it('lists no operation the app does not serve', () => {
    expect(unservedOperations(running.svc.app, served)).toEqual([]);
  });

  it('is committed unchanged at docs/api/evidence-review.openapi.json (npm run openapi)', () => {
    expect(JSON.parse(JSON.stringify(served))).toEqual(committedOpenApiDocument('evidence-review'));
  });

  it('declares every path parameter', () => {
    expect(pathParameterMismatches(served)).toEqual([]);
  });

  it('is served at /evidence-risk-review/openapi.json without a token, as generated', async () => {
    const r = await fetch(`${running.svc.url}/evidence-risk-review/openapi.json`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { openapi: string };
    expect(body.openapi).toBe('3.1.0');
    expect(body).toEqual(JSON.parse(JSON.stringify(served)));
  });
});
