import { committedOpenApiDocument, pathParameterMismatches, undocumentedRoutes, unservedOperations } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startKb } from './kb-test-env';

type Operation = { parameters?: Array<{ in: string; name: string }> };
type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** The document generated from kb-api's module graph, as the running service serves it. */
describe('kb-api OpenAPI document', () => {
  let running: Awaited<ReturnType<typeof startKb>>;
  let served: OpenApiDocument;
  beforeAll(async () => {
    // Every optional area on (as for the committed document), so every route the app can serve is registered.
    running = await startKb(OPENAPI_ENV);
    const r = await fetch(`${running.svc.url}/api/kb/openapi.json`);
    expect(r.status).toBe(200);
    served = (await r.json()) as OpenApiDocument;
  });
  afterAll(() => running?.stop());

  it('is served at /api/kb/openapi.json without authentication', () => {
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths)).toContain('/api/kb/chat');
  });

  // A new route fails the build until its controller documents it.
  it('documents every route the app registers', () => {
    expect(undocumentedRoutes(running.svc.app, served)).toEqual([]);
  });

  it('lists no operation the app does not serve', () => {
    expect(unservedOperations(running.svc.app, served)).toEqual([]);
  });

  it('declares every path parameter it uses', () => {
    expect(pathParameterMismatches(served)).toEqual([]);
  });

  it('is committed unchanged at docs/api/kb-api.openapi.json (npm run openapi)', () => {
    expect(served).toEqual(committedOpenApiDocument('kb-api'));
  });
});
